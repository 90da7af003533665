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
 * Takes the lease when free, or when `holder` already holds it: the same holder coming back (a
 * routing job retried) holds it again. One script, so nobody else can slip in between.
 */
const TAKE_OR_KEEP = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
`;

/**
 * Takes a fenced lease for `owner` (KEYS: lease, epoch; ARGV: owner, ms): when it is free, or
 * held by an earlier take of the same owner (`<owner>#<epoch>`, or the bare owner of a lease
 * taken before fencing). Every take raises the epoch, and the new epoch names this holder.
 */
const TAKE_FENCED = `
local held = redis.call('GET', KEYS[1])
local mine = ARGV[1] .. '#'
if held and held ~= ARGV[1] and string.sub(held, 1, #mine) ~= mine then return false end
local epoch = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], mine .. epoch, 'PX', ARGV[2])
return epoch
`;

/**
 * A lease: one key holding its holder's id with a time to live — taken with SET NX PX, extended
 * and released by compare-and-act scripts, gone by itself when its holder dies. The owner module
 * of each lease key (the Feishu long connection, the panel's eval run, a ticket's turn, the main
 * session's turn, a conversation's claim, the migration) calls these with its own key.
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

/** Takes the lease, or keeps it when `holder` holds it already (its ttl runs again from now). */
export async function takeOrKeepLease(
  redis: Store,
  key: string,
  holder: string,
  ttlMs: number,
): Promise<boolean> {
  return (await redis.eval(TAKE_OR_KEEP, 1, key, holder, ttlMs)) === 1;
}

/** A fenced lease as taken: the holder to renew and release it with, and its fencing token. */
export interface FencedLease {
  holder: string;
  /** The epoch this take raised `epochKey` to; a later take by anyone raises it further. */
  token: string;
}

/**
 * Issue 46: takes the lease for `owner` with a fencing token. It is taken when free, and taken
 * over from an earlier holder of the same owner — a job that BullMQ gave to this worker because
 * the one running it stopped renewing its job lock (it froze, or died). Each take raises the
 * epoch at `epochKey`, so the earlier holder's token is stale from this moment: its renewals
 * fail (the holder differs) and its fenced writes are refused (`src/store/fence.ts`). Null when
 * another owner holds the lease.
 */
export async function takeFencedLease(
  redis: Store,
  key: string,
  epochKey: string,
  owner: string,
  ttlMs: number,
): Promise<FencedLease | null> {
  const epoch = await redis.eval(TAKE_FENCED, 2, key, epochKey, owner, ttlMs);
  if (typeof epoch !== 'number') return null;
  return { holder: `${owner}#${epoch}`, token: String(epoch) };
}
