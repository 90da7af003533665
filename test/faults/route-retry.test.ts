import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { executorFlow, startWorld, type World } from '../integration/executor/harness.ts';
import { botMessages, localMessage, send, ticketOpenedBy } from '../integration/routing/helpers.ts';
import { waitFor } from '../kit/app.ts';
import { text, toolCalls } from '../kit/fake-llm.ts';
import { cardsIn, roleOf } from '../kit/scripted-model.ts';

/**
 * Nothing lost when routing fails partway (R-B2, "nothing lost"): a redelivered event is answered
 * as a duplicate, so the card's routing job itself must get through — retried until it does.
 */
describe('a request survives a routing failure', () => {
  let w: World;
  beforeEach(async () => {
    w = await startWorld();
  });
  afterEach(async () => w.close());

  it('routing that fails once (the turn could not be queued) is retried, and the request is worked', async () => {
    const flow = executorFlow(w.llm, [
      (_r, card) => toolCalls(['reply', { to: card, text: `Working on acme/web for ${card}.` }]),
    ]);
    // A stored counter that is not a number: queueing the new ticket's first turn fails.
    const seq = w.app.ctx.keys.turnSeq('T1');
    await w.app.ctx.redis.set(seq, 'not-a-number');
    const card = await send(w.app.ctx, localMessage('Please fix the login redirect in acme/web'));
    const failedOnce = async () => ((await w.app.ctx.queues.route.getJob(card))?.attemptsMade ?? 0) >= 1;
    await waitFor(failedOnce, 'the first routing attempt to fail', 15_000);
    // Issue 46 item 2: nothing says a turn is queued when none is.
    expect(await w.app.ctx.queues.executor.getDeduplicationJobId('turn:T1')).toBeNull();
    await w.app.ctx.redis.del(seq);
    await flow.done();
    expect(flow.results[0]?.join('\n')).toMatch(/^reply queued to /);
    expect(await ticketOpenedBy(w.app.ctx, card)).toBe('T1');
  });

  it('a follow-up whose routing fails after it was attached still wakes its ticket when the routing is retried', async () => {
    const first = executorFlow(w.llm, [
      (_r, card) => toolCalls(['reply', { to: card, text: `Working on acme/web for ${card}.` }]),
      () => toolCalls(['report', { status: 'working', summary: 'Looking.' }]),
    ]);
    const card = await send(w.app.ctx, localMessage('Please fix the login redirect in acme/web'));
    await first.done();
    expect(await ticketOpenedBy(w.app.ctx, card)).toBe('T1');
    const seen: string[] = [];
    w.llm.respond((req) => {
      if (roleOf(req) !== 'executor') return text('Nothing.');
      seen.push(...cardsIn(req));
      return text('Noted.');
    });
    const seq = w.app.ctx.keys.turnSeq('T1');
    await w.app.ctx.redis.set(seq, 'not-a-number');
    const ack = await waitFor(
      async () => (await botMessages(w.app.ctx)).find((m) => m.text.includes(card)),
      'the acknowledgement',
    );
    // A reply to the acknowledgement: attached to T1 by reference, with no main session.
    const followUp = await send(
      w.app.ctx,
      localMessage('also check the logout redirect', { replyTo: ack.id }),
    );
    await waitFor(
      async () => ((await w.app.ctx.queues.route.getJob(followUp))?.attemptsMade ?? 0) >= 1,
      'a failed attempt',
    );
    await w.app.ctx.redis.set(seq, '50');
    await waitFor(() => seen.includes(followUp), 'a turn holding the follow-up', 20_000);
  });
});
