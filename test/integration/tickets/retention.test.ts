import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCard } from '../../../src/cards/ingest.ts';
import type { Ctx } from '../../../src/context.ts';
import { workspacePaths } from '../../../src/executor/workspace/workspace.ts';
import { sweepRetention } from '../../../src/safety/retention-sweep.ts';
import { refKey } from '../../../src/tickets/ref-key.ts';
import { ticketOwnKeys, ticketTransientKeys } from '../../../src/tickets/ticket-keys.ts';
import { addTicketRefs, createTicket, getTicket, setTicketState } from '../../../src/tickets/ticket-store.ts';
import { startTestApp, type TestApp } from '../../kit/app.ts';
import { localMessage, send } from '../routing/helpers.ts';

const DAY = 24 * 3600 * 1000;

/** A ticket opened from a fresh card, with a transcript line and a checkout on disk. */
async function ticketWithData(ctx: Ctx, text: string) {
  const cardId = await send(ctx, localMessage(text));
  const ticket = await createTicket(ctx, (await loadCard(ctx, cardId))!, { why: 'explicit request' });
  await ctx.redis.rpush(ctx.keys.transcript(`exec-${ticket.id}`), '{"role":"user"}');
  await ctx.redis.rpush(ctx.keys.sessionSteps(`exec-${ticket.id}`), '{"kind":"turn"}');
  await ctx.redis.rpush(ctx.keys.pauseLog(ticket.id), '{"kind":"pause"}');
  await ctx.redis.rpush(ctx.keys.ticketReports(ticket.id), '{"status":"working"}');
  await addTicketRefs(ctx, ticket.id, [
    refKey({ type: 'pr', repo: 'acme/web', number: ticket.createdAt % 1000 }),
  ]);
  const paths = workspacePaths(ctx, ticket.id);
  mkdirSync(join(paths.dir, '.git'), { recursive: true });
  writeFileSync(join(paths.dir, 'big.bin'), Buffer.alloc(4096));
  mkdirSync(paths.home, { recursive: true });
  return { id: ticket.id, cardId, paths };
}

/** Issue 14 "lifecycle": closed tickets expire, the sweep cleans up, the cards index is bounded. */
describe('retention of closed tickets, their transcripts and cards', () => {
  let app: TestApp;
  let root: string;
  let now = Date.now();
  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), 'sy-retention-'));
    app = await startTestApp(
      { RETENTION_DAYS: '2', CARDS_INDEX_MAX: '5', WORKSPACE_DIR: root },
      { workers: false },
    );
    app.ctx.now = () => now;
  });
  afterEach(async () => {
    await app.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('closing a ticket sets RETENTION_DAYS TTLs on its data, transcript and cards; reopening lifts them', async () => {
    const { ctx } = app;
    const t = await ticketWithData(ctx, 'Please tidy the login module');
    expect(await ctx.redis.pttl(ctx.keys.ticket(t.id))).toBe(-1);
    await ctx.redis.set(ctx.keys.breakerTrip(t.id), '1', 'PX', 3600_000);
    await setTicketState(ctx, t.id, 'done');
    // Short-lived flags keep their own, shorter TTLs.
    expect(await ctx.redis.pttl(ctx.keys.breakerTrip(t.id))).toBeLessThanOrEqual(3600_000);
    for (const key of [
      ctx.keys.ticket(t.id),
      ctx.keys.transcript(`exec-${t.id}`),
      // Issue 17: the trajectory's step records and pause log go with the transcript.
      ctx.keys.sessionSteps(`exec-${t.id}`),
      ctx.keys.pauseLog(t.id),
      ctx.keys.ticketReports(t.id),
      ctx.keys.ticketCards(t.id),
      ctx.keys.card(t.cardId),
    ]) {
      const ttl = await ctx.redis.pttl(key);
      expect(ttl, key).toBeGreaterThan(2 * DAY - 60_000);
      expect(ttl, key).toBeLessThanOrEqual(2 * DAY);
    }
    // The references outlive the rest, so the sweep can still take the ticket out of the index.
    expect(await ctx.redis.pttl(ctx.keys.ticketRefs(t.id))).toBeGreaterThan(2 * DAY);
    await setTicketState(ctx, t.id, 'working');
    expect(await ctx.redis.pttl(ctx.keys.ticket(t.id))).toBe(-1);
    expect(await ctx.redis.pttl(ctx.keys.breakerTrip(t.id))).toBeGreaterThan(0);
    expect(await ctx.redis.pttl(ctx.keys.transcript(`exec-${t.id}`))).toBe(-1);
  });

  it('the sweep purges tickets closed longer than RETENTION_DAYS, and leaves checkouts to the workspace sweep', async () => {
    const { ctx } = app;
    const open = await ticketWithData(ctx, 'Please add a health check');
    const closed = await ticketWithData(ctx, 'Please fix the footer');
    const finished = await ticketWithData(ctx, 'Please rename the module');
    await setTicketState(ctx, closed.id, 'cancelled');
    await setTicketState(ctx, finished.id, 'done');
    const first = await sweepRetention(ctx);
    expect(first.purged).toEqual([]);
    // Issue 19: a queue job runs on one worker; each worker sweeps its own disk (sweep-checkouts).
    expect(existsSync(closed.paths.dir)).toBe(true);
    expect(await getTicket(ctx, closed.id)).toBeDefined();

    now += 3 * DAY;
    const refs = await ctx.redis.smembers(ctx.keys.ticketRefs(closed.id));
    const later = await sweepRetention(ctx);
    expect(later.purged).toEqual(expect.arrayContaining([closed.id, finished.id]));
    expect(later.purged).not.toContain(open.id);
    expect(await getTicket(ctx, closed.id)).toBeUndefined();
    expect(
      await ctx.redis.exists(ctx.keys.transcript(`exec-${closed.id}`), ctx.keys.ticketRefs(closed.id)),
    ).toBe(0);
    expect(await ctx.redis.zscore(ctx.keys.tickets(), closed.id)).toBeNull();
    for (const ref of refs) expect(await ctx.redis.sismember(ctx.keys.refIndex(ref), closed.id)).toBe(0);
    expect(await loadCard(ctx, closed.cardId)).toBeUndefined();
    expect(await ctx.redis.zscore(ctx.keys.cardsByTime(), closed.cardId)).toBeNull();
    expect(await getTicket(ctx, open.id)).toBeDefined();
    expect(await loadCard(ctx, open.cardId)).toBeDefined();
  });

  it('a ticket whose record already expired leaves the tickets and reference indexes at the next sweep', async () => {
    const { ctx } = app;
    const t = await ticketWithData(ctx, 'Please update the docs');
    const refs = await ctx.redis.smembers(ctx.keys.ticketRefs(t.id));
    await ctx.redis.del(ctx.keys.ticket(t.id));
    expect((await sweepRetention(ctx)).purged).toContain(t.id);
    expect(await ctx.redis.zscore(ctx.keys.tickets(), t.id)).toBeNull();
    for (const ref of refs) expect(await ctx.redis.sismember(ctx.keys.refIndex(ref), t.id)).toBe(0);
  });

  it('every per-ticket key in keys.ts is either kept with the ticket, its reference list, or transient', () => {
    const { keys } = app.ctx;
    const listed = new Set([
      ...ticketOwnKeys(keys, 'T9'),
      ...ticketTransientKeys(keys, 'T9'),
      keys.ticketRefs('T9'),
      keys.ticket('T9'),
    ]);
    const perTicket = Object.values(keys)
      .filter((fn): fn is (id: string) => string => typeof fn === 'function' && fn.length === 1)
      .map((fn) => fn('T9'))
      .filter((key) => /:(ticket|pause|outbox:ticket|breaker):T9(:|$)/.test(key));
    // A key added for a ticket without a place here would never expire (Redis runs noeviction).
    expect(perTicket.filter((key) => !listed.has(key))).toEqual([]);
  });

  it('the cards index stays bounded by CARDS_INDEX_MAX and by age, whatever arrives', async () => {
    const { ctx } = app;
    for (let i = 0; i < 12; i++) await send(ctx, localMessage(`note ${i}`, { request: false }));
    expect(await ctx.redis.zcard(ctx.keys.cardsByTime())).toBe(5);
    const old = now;
    now += 3 * DAY;
    await send(ctx, localMessage('a later note', { request: false }));
    expect(await ctx.redis.zcount(ctx.keys.cardsByTime(), '-inf', old)).toBe(0);
    expect(await ctx.redis.zcard(ctx.keys.cardsByTime())).toBe(1);
  });
});
