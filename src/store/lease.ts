import type { Ctx } from '../context.ts';

type Store = Ctx['redis'];

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
 * A lease: one key holding its holder's id with a time to live — taken with SET NX PX, extended
 * and released by compare-and-act scripts, gone by itself when its holder dies. The owner module
 * of each lease key (the Feishu long connection, the panel's eval run, a ticket's turn) calls these
 * with its own key.
 */
export async function takeLease(redis: Store, key: string, holder: string, ttlMs: number): Promise<boolean> {
  return (await redis.set(key, holder, 'PX', ttlMs, 'NX')) === 'OK';
}

/** True when `holder` still held the lease and it now runs `ttlMs` from this call. */
export async function renewLease(redis: Store, key: string, holder: string, ttlMs: number): Promise<boolean> {
  return (await redis.eval(RENEW, 1, key, holder, ttlMs)) === 1;
}

/** Gives the lease up at once, if `holder` still holds it. */
export async function releaseLease(redis: Store, key: string, holder: string): Promise<void> {
  await redis.eval(RELEASE, 1, key, holder);
}
