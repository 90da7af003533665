import { describe, expect, it } from 'vitest';
import { enqueueEffect, outboxJobId } from '../../../src/outbox/enqueue.ts';
import { withMainLock } from '../../../src/router/main/main-lock.ts';
import type { ChatMessage } from '../../../src/session/chat-message.ts';
import { withFence } from '../../../src/store/fence.ts';
import { listTickets } from '../../../src/tickets/ticket-store.ts';
import { waitFor } from '../../kit/app.ts';
import { type FakeReply, text } from '../../kit/fake-llm.ts';
import { useModelApp } from '../../kit/model-app.ts';
import { ackAll, openAll, roleOf } from '../../kit/scripted-model.ts';
import { localMessage, openTicketIn, routedOf, send } from './helpers.ts';

/**
 * Issue 46: the main session's lock (`main-lock.ts`) is a fenced lease. A main turn that lost it
 * to a newer runner of the same turn (BullMQ gave its job to another worker) records, routes and
 * queues nothing more; another turn waits while one holds it.
 */
describe('fencing the main session (issue 46)', () => {
  const w = useModelApp();

  it('a main turn taken over mid-request records and routes nothing of its answer, and ends superseded', async () => {
    const { ctx } = w.app;
    let asked = 0;
    let answer: (reply: FakeReply) => void = () => {};
    let routing: FakeReply | undefined;
    w.llm.respond((req) => {
      if (roleOf(req) !== 'main') return ackAll(req);
      asked += 1;
      if (asked > 1) return text('ok');
      routing = openAll(req);
      return new Promise<FakeReply>((resolve) => (answer = resolve));
    });
    const chat = `fenced-main-${process.pid}`;
    await openTicketIn(ctx, chat);
    const card = await send(ctx, localMessage('rename the footer module', { chat }));
    await waitFor(() => asked === 1, 'the main turn to be mid-request');
    const holder = await waitFor(() => ctx.redis.get(ctx.keys.mainLock()), 'the main lock');
    const turnId = holder.slice(0, holder.lastIndexOf('#'));

    // Another main turn waits while this one holds the lock.
    expect(await withMainLock(ctx, 'another-turn', async () => 'ran')).toBe('locked');
    // The same turn, handed to another worker, takes the lock over (and is done with it at once).
    const reply = (key: string) => ({ op: 'local.reply' as const, chatId: chat, messageId: 'm1', text: key });
    const newer = await withMainLock(ctx, turnId, (fence) =>
      withFence(fence, () => enqueueEffect(ctx, { key: 'main:newer', effect: reply('newer') })),
    );
    expect(newer).toBeUndefined();

    // The first runner's answer arrives: it would route the card.
    answer(routing ?? text('ok'));
    const done = await waitFor(
      async () => (await ctx.queues.main.getJobs(['completed'])).find((j) => j.id === turnId),
      'the first runner to end',
    );
    expect(done.returnvalue).toEqual({ kind: 'superseded' });
    // Still a candidate: no ticket was opened for it.
    expect(await routedOf(ctx, card)).toMatchObject({ kind: 'candidate' });
    expect(await listTickets(ctx)).toHaveLength(1);
    const messages = (await ctx.redis.lrange(ctx.keys.transcript(`main-${turnId}`), 0, -1)).map(
      (m) => JSON.parse(m) as ChatMessage,
    );
    expect(messages.filter((m) => m.role !== 'user')).toEqual([]);
    expect(await ctx.queues.outbox.getJob(outboxJobId('main:newer'))).toBeDefined();
  });
});
