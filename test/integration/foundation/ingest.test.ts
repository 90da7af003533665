import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CardDraft } from '../../../src/cards/card.ts';
import { ingest, loadCard } from '../../../src/cards/ingest.ts';
import { pumpIntake } from '../../../src/cards/intake-pump.ts';
import { outboxJobId } from '../../../src/outbox/enqueue.ts';
import { startTestApp, type TestApp } from '../../kit/app.ts';
import { startRedisServer } from '../../kit/redis-server.ts';

const draft = (eventId: string, text = 'please fix the login bug'): CardDraft => ({
  source: 'local',
  kind: 'message',
  eventId,
  author: { id: 'ada', type: 'person' },
  origin: { source: 'local', chatId: 'try', messageId: `m-${eventId}` },
  conversation: 'local:try',
  request: true,
  refs: [],
  text,
});

describe('ingest (R-A1, R-A3)', () => {
  let app: TestApp;
  beforeEach(async () => {
    app = await startTestApp({}, { workers: false });
  });
  afterEach(() => app.close());

  it('R-A1: one delivery stores one card, one routing job and one seen reaction', async () => {
    const r = await ingest(app.ctx, draft('e1'));
    expect(r.kind).toBe('new');
    const id = r.kind === 'new' ? r.card.id : '';
    expect(await loadCard(app.ctx, id)).toMatchObject({ id, text: 'please fix the login bug' });
    expect(await app.ctx.queues.route.getJob(id)).toBeTruthy();
    const outbox = await app.ctx.queues.outbox.getJobs(['waiting', 'delayed', 'prioritized']);
    expect(outbox.filter((j) => j.data.key === `seen:${id}`)).toHaveLength(1);
  });

  it('R-A1: ten concurrent copies of one delivery produce one card and one job of each kind', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, () => ingest(app.ctx, draft('e-burst'))));
    const fresh = results.flatMap((r) => (r.kind === 'new' ? [r.card] : []));
    expect(fresh).toHaveLength(1);
    const id = fresh[0]?.id;
    expect(results.every((r) => (r.kind === 'new' ? r.card.id : r.cardId) === id)).toBe(true);
    const routeJobs = await app.ctx.queues.route.getJobs(['waiting']);
    expect(routeJobs.filter((j) => j.data.cardId === id)).toHaveLength(1);
    // Issue 45: a "seen" reaction is a background job (prioritized behind tickets' own messages).
    const outbox = await app.ctx.queues.outbox.getJobs(['waiting', 'prioritized']);
    expect(outbox.filter((j) => j.data.key === `seen:${id}`)).toHaveLength(1);
  });

  it('issue 18: the claims of one event-loop turn go to Redis as one script call, each answered for its own card', async () => {
    // A Redis of the test's own, so its command counts are this test's alone.
    const redis = await startRedisServer(['--save', '']);
    const own = await startTestApp({ REDIS_URL: redis.url }, { workers: false });
    try {
      await own.ctx.redis.config('RESETSTAT');
      const drafts = [...Array.from({ length: 30 }, (_, i) => draft(`turn-${i}`)), draft('turn-7')];
      const results = await Promise.all(drafts.map((d) => ingest(own.ctx, d, { answerFirst: true })));
      expect(results.filter((r) => r.kind === 'new')).toHaveLength(30);
      const again = results.at(-1);
      const seventh = results[7];
      expect(again?.kind).toBe('duplicate');
      expect(again?.kind === 'duplicate' && seventh?.kind === 'new' && again.cardId === seventh.card.id).toBe(
        true,
      );
      // The events inbox (issue 33) writes after the answers: 30 received, one redelivery.
      await expect.poll(() => own.ctx.redis.zcard(own.ctx.keys.eventLog())).toBe(31);
      const stats = await own.ctx.redis.info('commandstats');
      const calls = (name: string) =>
        Number(new RegExp(`cmdstat_${name}:calls=(\\d+)`).exec(stats)?.[1] ?? 0);
      // Three EVALSHAs, each a turn's batch: the claims, Home's channel counts (issue 33) and the
      // inbox entries; on this fresh Redis each answers NOSCRIPT once and its source goes once.
      expect(calls('evalsha')).toBe(3);
      expect(calls('eval')).toBeLessThanOrEqual(3);
      expect(await own.ctx.redis.zcard(own.ctx.keys.cardsIntake())).toBe(30);
    } finally {
      await own.close();
      await redis.stop();
    }
  });

  it('R-A1: a redelivery after the first attempt died before enqueueing still enqueues, once', async () => {
    const d = draft('e-crash');
    // Simulate a crash between the atomic claim and the enqueue: the claim says "stored".
    const first = await ingest(app.ctx, d);
    const id = first.kind === 'new' ? first.card.id : '';
    await app.ctx.queues.route.remove(id);
    await app.ctx.redis.set(app.ctx.keys.seen('local', 'e-crash'), 'stored', 'KEEPTTL');
    const again = await ingest(app.ctx, d);
    expect(again.kind).toBe('duplicate');
    expect(await app.ctx.queues.route.getJob(id)).toBeTruthy();
    expect(await app.ctx.redis.get(app.ctx.keys.seen('local', 'e-crash'))).toBe('queued');
  });

  it('issue 18: answering first, the card is durable in the intake and a pump queues its jobs once', async () => {
    const r = await ingest(app.ctx, draft('e-first'), { answerFirst: true });
    if (r.kind !== 'new') throw new Error('expected new');
    expect(await loadCard(app.ctx, r.card.id)).toMatchObject({ id: r.card.id });
    // No worker runs here: the jobs wait for a pump.
    expect(await app.ctx.queues.route.getJob(r.card.id)).toBeUndefined();
    expect(await app.ctx.redis.zrange(app.ctx.keys.cardsIntake(), 0, -1)).toEqual([r.card.id]);
    expect(await pumpIntake(app.ctx)).toBe(1);
    expect(await app.ctx.queues.route.getJob(r.card.id)).toBeTruthy();
    expect(await app.ctx.queues.outbox.getJob(outboxJobId(`seen:${r.card.id}`))).toBeTruthy();
    expect(await app.ctx.redis.get(app.ctx.keys.seen('local', 'e-first'))).toBe('queued');
    expect(await app.ctx.redis.zcard(app.ctx.keys.cardsIntake())).toBe(0);
    expect(await pumpIntake(app.ctx)).toBe(0);
    const again = await ingest(app.ctx, draft('e-first'), { answerFirst: true });
    expect(again).toEqual({ kind: 'duplicate', cardId: r.card.id });
  });

  it('issue 18: a card its process never queued (it died) is taken by a pump once its lease ran out', async () => {
    const first = await ingest(app.ctx, draft('e-died'));
    const id = first.kind === 'new' ? first.card.id : '';
    // The state a crash right after the claim leaves: card stored, in the intake under the
    // process's lease, no jobs.
    await app.ctx.queues.route.remove(id);
    await app.ctx.queues.outbox.remove(outboxJobId(`seen:${id}`));
    await app.ctx.redis.set(app.ctx.keys.seen('local', 'e-died'), 'stored', 'KEEPTTL');
    await app.ctx.redis.zadd(app.ctx.keys.cardsIntake(), app.ctx.now() + 30_000, id);
    expect(await pumpIntake(app.ctx)).toBe(0);
    expect(await app.ctx.queues.route.getJob(id)).toBeUndefined();
    await app.ctx.redis.zadd(app.ctx.keys.cardsIntake(), app.ctx.now() - 1, id);
    expect(await pumpIntake(app.ctx)).toBe(1);
    expect(await app.ctx.queues.route.getJob(id)).toBeTruthy();
    expect(await app.ctx.queues.outbox.getJob(outboxJobId(`seen:${id}`))).toBeTruthy();
    expect(await app.ctx.redis.get(app.ctx.keys.seen('local', 'e-died'))).toBe('queued');
    expect(await app.ctx.redis.zcard(app.ctx.keys.cardsIntake())).toBe(0);
  });

  it('issue 18: the pump drops intake entries whose card expired', async () => {
    await app.ctx.redis.zadd(app.ctx.keys.cardsIntake(), 1, 'local-gone');
    expect(await pumpIntake(app.ctx)).toBe(0);
    expect(await app.ctx.redis.zcard(app.ctx.keys.cardsIntake())).toBe(0);
  });

  it('R-A3: text over the cap is cut at a boundary and points to the whole, which is kept', async () => {
    const long = `${'word '.repeat(1200)}\n\nTAIL`;
    const r = await ingest(app.ctx, draft('e-long', long));
    if (r.kind !== 'new') throw new Error('expected new');
    expect(r.card.text.length).toBeLessThanOrEqual(4000);
    expect(r.card.text.endsWith('word')).toBe(true);
    expect(r.card.truncated).toEqual({ resource: `/api/cards/${r.card.id}/text`, totalChars: long.length });
    expect(await app.ctx.redis.get(app.ctx.keys.cardFull(r.card.id))).toBe(long);
  });

  it('R-A3: text under the cap carries no resource pointer', async () => {
    const r = await ingest(app.ctx, draft('e-short'));
    if (r.kind !== 'new') throw new Error('expected new');
    expect(r.card.truncated).toBeUndefined();
    expect(await app.ctx.redis.exists(app.ctx.keys.cardFull(r.card.id))).toBe(0);
  });
});
