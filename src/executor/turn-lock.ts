import type { Ctx } from '../context.ts';
import { releaseLease, renewLease, takeLease } from '../store/lease.ts';

const LOCK_MS = 60_000;

/**
 * Runs `fn` holding the ticket's turn lock (one executor turn at a time per ticket; a lease,
 * `src/store/lease.ts`), renewing it
 * while the turn runs. The same turn id re-entering (a retried job) holds it again. A crashed
 * holder's lock expires after a minute, and its job resumes from the transcript.
 */
export async function withTurnLock<T>(
  ctx: Pick<Ctx, 'redis' | 'keys'>,
  ticketId: string,
  turnId: string,
  fn: () => Promise<T>,
): Promise<T | 'locked'> {
  const key = ctx.keys.turnLock(ticketId);
  const got = (await takeLease(ctx.redis, key, turnId, LOCK_MS)) || (await ctx.redis.get(key)) === turnId;
  if (!got) return 'locked';
  const renew = setInterval(() => {
    void renewLease(ctx.redis, key, turnId, LOCK_MS).catch(() => {});
  }, LOCK_MS / 3);
  try {
    return await fn();
  } finally {
    clearInterval(renew);
    await releaseLease(ctx.redis, key, turnId);
  }
}
