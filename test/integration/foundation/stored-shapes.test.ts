import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildCard } from '../../../src/cards/build-card.ts';
import type { CardDraft } from '../../../src/cards/card.ts';
import { loadConfig } from '../../../src/config.ts';
import { createLogger } from '../../../src/logger.ts';
import { createTranscriptStore } from '../../../src/session/transcript-store.ts';
import { newTurnState } from '../../../src/session/turn-state.ts';
import { expiredTickets } from '../../../src/tickets/retention.ts';
import {
  createTicket,
  getTicket,
  listTickets,
  openTicketsIn,
  updateTicket,
} from '../../../src/tickets/ticket-store.ts';
import { testRedis } from '../../kit/redis.ts';

const { redis, keys } = testRedis();

/** A context with its own key prefix whose log lines land in `lines`, to see what a bad record reports. */
function ctxWithLog() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const log = createLogger('info', {}, { destination });
  return { ctx: { redis, keys: keys(), log, now: () => 1_000, config: loadConfig({}) }, lines };
}

const reported = (lines: Record<string, unknown>[], key: string) =>
  lines.some((l) => l.msg === 'stored record failed validation' && l.key === key);

const draft: CardDraft = {
  source: 'local',
  kind: 'message',
  eventId: 'e1',
  author: { id: 'ada', type: 'person' },
  origin: { source: 'local', chatId: 'try', messageId: 'm1' },
  conversation: 'local:try',
  request: true,
  refs: [],
  text: 'fix the login page',
};

describe('issue 20: the transcript is read through its schemas', () => {
  it('a transcript reads back as written, results and turn included', async () => {
    const { ctx } = ctxWithLog();
    const store = createTranscriptStore(ctx);
    const call = { id: 'c1', type: 'function' as const, function: { name: 'reply', arguments: '{}' } };
    const turn = newTurnState('turn-1', 5);
    await store.appendStep('s', [{ role: 'user', content: 'hi' }], turn);
    await store.appendStep(
      's',
      [{ role: 'assistant', content: null, tool_calls: [call], reasoning_content: 'r' }],
      turn,
    );
    await store.recordToolResult(
      's',
      '1:c1',
      { ok: true, content: 'done' },
      {
        role: 'tool',
        tool_call_id: 'c1',
        content: 'done',
      },
    );
    const t = await store.load('s');
    expect(t.messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null, tool_calls: [call], reasoning_content: 'r' },
      { role: 'tool', tool_call_id: 'c1', content: 'done' },
    ]);
    expect(t.turn).toEqual(turn);
    expect(t.step).toBe(3);
    expect([...t.results]).toEqual([['1:c1', { ok: true, content: 'done' }]]);
  });

  it('a stored message, result or turn of another shape is reported as StoredRecordError, not cast', async () => {
    const { ctx, lines } = ctxWithLog();
    const store = createTranscriptStore(ctx);
    await store.appendStep('bad-msg', [{ role: 'user', content: 'hi' }], newTurnState('t', 1));
    await redis.rpush(
      ctx.keys.transcript('bad-msg'),
      JSON.stringify({ role: 'tool', content: 'no call id' }),
    );
    await expect(store.load('bad-msg')).rejects.toMatchObject({
      code: 'invalid_record',
      key: `${ctx.keys.transcript('bad-msg')} [1]`,
    });
    expect(reported(lines, `${ctx.keys.transcript('bad-msg')} [1]`)).toBe(true);

    await redis.hset(ctx.keys.transcriptMeta('bad-result'), 'result:0:c1', JSON.stringify({ ok: 'yes' }));
    await expect(store.load('bad-result')).rejects.toMatchObject({
      code: 'invalid_record',
      key: `${ctx.keys.transcriptMeta('bad-result')} result:0:c1`,
    });
    await redis.hset(
      ctx.keys.transcriptMeta('bad-turn'),
      'turn',
      JSON.stringify({ id: 't', status: 'dozing' }),
    );
    await expect(store.load('bad-turn')).rejects.toMatchObject({ code: 'invalid_record' });
    await redis.hset(ctx.keys.transcriptMeta('bad-early'), 'early:0:c1', '{"id":');
    await expect(store.load('bad-early')).rejects.toMatchObject({ code: 'invalid_record' });
  });
});

describe('issue 20: the ticket record is read through its schema', () => {
  it('a ticket reads back as written', async () => {
    const { ctx } = ctxWithLog();
    const { card } = buildCard(draft, 1_000);
    const ticket = await createTicket(ctx, card, { why: 'asked' });
    expect(await getTicket(ctx, ticket.id)).toEqual(ticket);
    expect(await listTickets(ctx)).toEqual([ticket]);
    expect(await openTicketsIn(ctx, card.conversation)).toEqual([ticket.id]);
  });

  it('a ticket of another shape is reported: getTicket throws, lists leave it out', async () => {
    const { ctx, lines } = ctxWithLog();
    const { card } = buildCard(draft, 1_000);
    const good = await createTicket(ctx, card, { why: 'asked' });
    const bad = await createTicket(ctx, card, { why: 'asked' });
    const key = ctx.keys.ticket(bad.id);
    await redis.hset(key, 'state', JSON.stringify('dozing'));
    await expect(getTicket(ctx, bad.id)).rejects.toMatchObject({ code: 'invalid_record', key });
    expect(reported(lines, key)).toBe(true);
    expect((await listTickets(ctx)).map((t) => t.id)).toEqual([good.id]);
    expect(await openTicketsIn(ctx, card.conversation)).toEqual([good.id]);
    expect(reported(lines, `${key} state`)).toBe(true);

    await redis.hset(key, 'state', JSON.stringify('open'), 'createdAt', 'not json');
    await expect(getTicket(ctx, bad.id)).rejects.toMatchObject({
      code: 'invalid_record',
      key: `${key} createdAt`,
    });
  });

  it('retention: a ticket whose stored state fails its schema is reported and not purged', async () => {
    const { ctx, lines } = ctxWithLog();
    const retention = { ...ctx, config: loadConfig({}) };
    const { card } = buildCard(draft, 1_000);
    const done = await createTicket(ctx, card, { why: 'asked' });
    const odd = await createTicket(ctx, card, { why: 'asked' });
    await updateTicket(ctx, done.id, { state: 'done' });
    await redis.hset(ctx.keys.ticket(odd.id), 'state', '"done');
    expect(await expiredTickets(retention, 2_000)).toEqual([done.id]);
    expect(reported(lines, `${ctx.keys.ticket(odd.id)} state`)).toBe(true);
  });
});
