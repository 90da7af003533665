import type { Ctx } from '../../context.ts';

type LockCtx = Pick<Ctx, 'redis' | 'keys'>;

/** How long the lock outlives a main turn whose worker died. */
const LOCK_MS = 10 * 60_000;

/**
 * The owner of `mainLock` (issue 20, R-B1): one main-session turn at a time per deployment. The
 * turn holding it may take it again (a resumed job); another may not.
 */
export async function takeMainLock(ctx: LockCtx, turnId: string): Promise<boolean> {
  const key = ctx.keys.mainLock();
  if ((await ctx.redis.set(key, turnId, 'PX', LOCK_MS, 'NX')) === 'OK') return true;
  return (await ctx.redis.get(key)) === turnId;
}

/** Releases the lock only if this turn still holds it (one script: never another turn's lock). */
export async function releaseMainLock(ctx: LockCtx, turnId: string): Promise<void> {
  await ctx.redis.eval(
    "if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end",
    1,
    ctx.keys.mainLock(),
    turnId,
  );
}
