import type { Ctx } from '../context.ts';

type HeldCtx = Pick<Ctx, 'redis' | 'keys'>;

/**
 * The owner of held deliveries (R-D2): `outboxHeld(ticket)`, the ids of the outbox jobs a paused
 * ticket holds back. A held job is never completed: it waits, delayed, in the outbox queue, and the
 * ticket's resume promotes it, so what was queued before a pause goes out after it, once (its
 * idempotency key still guards the send).
 */

/** A held job looks at the pause again this long after it was held, should no resume promote it (a crash between the resume and the release). */
export const HOLD_RECHECK_MS = 60_000;

/** The set outlives the longest pause anyone would keep; a resume empties it. */
const HELD_TTL_S = 30 * 24 * 3600;

/** Notes a job as held by the ticket's pause (before the job is moved aside: a crash re-runs it). */
export async function noteHeld(ctx: HeldCtx, ticketId: string, jobId: string): Promise<void> {
  const key = ctx.keys.outboxHeld(ticketId);
  await ctx.redis.multi().sadd(key, jobId).expire(key, HELD_TTL_S).exec();
}

/** The ids of the jobs the ticket holds. */
export function heldJobIds(ctx: HeldCtx, ticketId: string): Promise<string[]> {
  return ctx.redis.smembers(ctx.keys.outboxHeld(ticketId));
}

/** Forgets released jobs (after they were promoted: a crash in between promotes them again, a no-op). */
export async function forgetHeld(ctx: HeldCtx, ticketId: string, jobIds: string[]): Promise<void> {
  if (jobIds.length) await ctx.redis.srem(ctx.keys.outboxHeld(ticketId), ...jobIds);
}
