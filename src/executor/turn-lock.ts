import type { Ctx } from '../context.ts';

const LOCK_MS = 60_000;

/**
 * Runs `fn` holding the ticket's turn lock (one executor turn at a time per ticket), renewing it
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
  const got =
    (await ctx.redis.set(key, turnId, 'PX', LOCK_MS, 'NX')) === 'OK' || (await ctx.redis.get(key)) === turnId;
  if (!got) return 'locked';
  const renew = setInterval(() => {
    void ctx.redis
      .eval(
        "if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end",
        1,
        key,
        turnId,
        LOCK_MS,
      )
      .catch(() => {});
  }, LOCK_MS / 3);
  try {
    return await fn();
  } finally {
    clearInterval(renew);
    await ctx.redis.eval(
      "if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end",
      1,
      key,
      turnId,
    );
  }
}
