import type { Ctx } from '../../../context.ts';

type LeaseCtx = Pick<Ctx, 'redis' | 'keys'>;

/** Extends the lease only while `holder` still holds it: a lapsed holder never revives its lease. */
const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
`;

/** Deletes the lease only while `holder` still holds it: never someone else's that followed. */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/**
 * Issue 16: the deployment's one Feishu long-connection lease (owner of `keys.feishuWsLease`).
 * A single key holding the holder's id with a time to live: taken with SET NX PX, extended and
 * released by compare-and-act scripts, so whoever holds it is the only process with a connection.
 * It expires by itself, so a killed holder needs no clean-up.
 */
export async function takeLease(ctx: LeaseCtx, holder: string, ttlMs: number): Promise<boolean> {
  return (await ctx.redis.set(ctx.keys.feishuWsLease(), holder, 'PX', ttlMs, 'NX')) === 'OK';
}

/** True when `holder` still held the lease and it now runs `ttlMs` from this call. */
export async function renewLease(ctx: LeaseCtx, holder: string, ttlMs: number): Promise<boolean> {
  return (await ctx.redis.eval(RENEW, 1, ctx.keys.feishuWsLease(), holder, ttlMs)) === 1;
}

/** Gives the lease up at once (shutdown), so another process takes over without waiting for expiry. */
export async function releaseLease(ctx: LeaseCtx, holder: string): Promise<void> {
  await ctx.redis.eval(RELEASE, 1, ctx.keys.feishuWsLease(), holder);
}
