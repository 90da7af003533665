import type { ChainableCommander } from 'ioredis';
import type { Ctx } from '../context.ts';
import type { Keys } from '../store/keys.ts';
import { needsUniqueOwner } from './ref-key.ts';

type RefsCtx = Pick<Ctx, 'redis' | 'keys'>;

/**
 * The owner of the reference index (issue 20, R-B2): `refIndex(key)` → the tickets holding a
 * reference, and `ticketRefs(id)` → a ticket's references, always written together so neither
 * side names something the other lacks. Keys are built by `ref-key.ts` (`refKey`, `threadKeys`,
 * `sentMessageRefKey`), never by hand.
 */

/** Adds the two sides of each reference to a MULTI the caller executes with its own writes. */
export function indexRefs(keys: Keys, tx: ChainableCommander, ticketId: string, refKeys: string[]): void {
  for (const key of refKeys) tx.sadd(keys.refIndex(key), ticketId).sadd(keys.ticketRefs(ticketId), key);
}

/** Takes both sides of each reference out, in the caller's MULTI. */
export function unindexRefs(keys: Keys, tx: ChainableCommander, ticketId: string, refKeys: string[]): void {
  for (const key of refKeys) tx.srem(keys.refIndex(key), ticketId).srem(keys.ticketRefs(ticketId), key);
  if (refKeys.length) tx.hdel(keys.ticketRefTimes(ticketId), ...refKeys);
}

/**
 * Indexes more references of a ticket (a PR it opened, a branch, a commit, a message it sent).
 * A commit or branch is stamped with now, each time the ticket takes it again (issue 30: only a
 * recent one attaches by code, `refTakenAt`).
 */
export async function addTicketRefs(
  ctx: RefsCtx & Pick<Ctx, 'now'>,
  ticketId: string,
  refKeys: string[],
): Promise<void> {
  if (!refKeys.length) return;
  const tx = ctx.redis.multi();
  indexRefs(ctx.keys, tx, ticketId, refKeys);
  for (const key of refKeys.filter(needsUniqueOwner))
    tx.hset(ctx.keys.ticketRefTimes(ticketId), key, String(ctx.now()));
  await tx.exec();
}

/** When each ticket last took each commit or branch (ms), in the order asked; undefined if never stamped. */
export async function refTakenAt(
  ctx: RefsCtx,
  pairs: [ticketId: string, refKey: string][],
): Promise<(number | undefined)[]> {
  if (!pairs.length) return [];
  const tx = ctx.redis.multi();
  for (const [id, key] of pairs) tx.hget(ctx.keys.ticketRefTimes(id), key);
  const rows = (await tx.exec()) ?? [];
  return rows.map(([, v]) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : undefined));
}

/** The tickets holding each reference, in the order asked (one round trip). */
export async function holdersOf(ctx: RefsCtx, refKeys: string[]): Promise<string[][]> {
  if (!refKeys.length) return [];
  const tx = ctx.redis.multi();
  for (const key of refKeys) tx.smembers(ctx.keys.refIndex(key));
  const rows = (await tx.exec()) ?? [];
  return rows.map(([, ids]) => (ids as string[] | null) ?? []);
}

/** How many tickets hold a reference. */
export function holderCount(ctx: RefsCtx, refKey: string): Promise<number> {
  return ctx.redis.scard(ctx.keys.refIndex(refKey));
}

/** Every reference a ticket holds. */
export function refsOf(ctx: RefsCtx, ticketId: string): Promise<string[]> {
  return ctx.redis.smembers(ctx.keys.ticketRefs(ticketId));
}
