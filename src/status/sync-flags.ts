import type { Ctx } from '../context.ts';

type FlagCtx = Pick<Ctx, 'redis' | 'keys'>;

/**
 * The owner of the status sync's two flags (issue 20): `statusScheduled`, set while a sync job is
 * queued (later changes ride on it), and `statusLock`, held by the one sync of a ticket running.
 * Both expire, so a lost job or a dead worker delays the status at most that long.
 */

/** The dirty flag outlives a lost job at most this long; the next change schedules again. */
const FLAG_TTL_MS = 60_000;
const LOCK_TTL_MS = 30_000;

/** True for the first change since the last sync started: it queues the job. */
export async function claimStatusDirty(ctx: FlagCtx, ticketId: string): Promise<boolean> {
  return (await ctx.redis.set(ctx.keys.statusScheduled(ticketId), '1', 'PX', FLAG_TTL_MS, 'NX')) === 'OK';
}

export async function clearStatusDirty(ctx: FlagCtx, ticketId: string): Promise<void> {
  await ctx.redis.del(ctx.keys.statusScheduled(ticketId));
}

export async function lockStatusSync(ctx: FlagCtx, ticketId: string): Promise<boolean> {
  return (await ctx.redis.set(ctx.keys.statusLock(ticketId), '1', 'PX', LOCK_TTL_MS, 'NX')) === 'OK';
}

export async function unlockStatusSync(ctx: FlagCtx, ticketId: string): Promise<void> {
  await ctx.redis.del(ctx.keys.statusLock(ticketId));
}
