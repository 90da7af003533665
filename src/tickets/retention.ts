import type { Ctx } from '../context.ts';
import { readRecord } from '../store/parse-record.ts';
import { readAttachments } from './attachment-record.ts';
import type { TicketState } from './ticket.ts';
import { cardKeys, ticketOwnKeys, ticketTransientKeys } from './ticket-keys.ts';
import { TicketStateSchema } from './ticket-schema.ts';

type RetentionCtx = Pick<Ctx, 'redis' | 'keys' | 'config' | 'now'> & Partial<Pick<Ctx, 'log'>>;

const PAGE = 500;

/**
 * Takes a card off a purged ticket; the last owner gone, the card itself goes (record, full text,
 * bookkeeping and index entry) in the same script, so no ticket is left pointing at a lost card.
 */
const RELEASE_CARD = `
redis.call('SREM', KEYS[1], ARGV[1])
if redis.call('SCARD', KEYS[1]) == 0 then
  redis.call('DEL', unpack(KEYS, 3))
  redis.call('ZREM', KEYS[2], ARGV[2])
end
return 1
`;

const DAY_MS = 24 * 3600 * 1000;

/** States after which a ticket takes no more work unless a person reopens it. */
export const isClosedState = (state: string | undefined): boolean =>
  state === 'done' || state === 'cancelled';

/** A stored state read through its schema; one that fails is logged and counts as not closed. */
function closedState(ctx: Partial<Pick<Ctx, 'log'>>, raw: string, key: string): boolean {
  const state = readRecord(ctx, TicketStateSchema, raw, `${key} state`);
  return state.ok && isClosedState(state.value);
}

export const retentionMs = (ctx: Pick<Ctx, 'config'>): number => ctx.config.RETENTION_DAYS * DAY_MS;

/** The reference list outlives the rest by this much, so the sweep can still clean the index. */
const REFS_GRACE_MS = 7 * DAY_MS;

/**
 * The lifetimes of a ticket's stored data (issue 14 "lifecycle"); the owner module of those TTLs
 * and of the purge, which touch every key a ticket has (listed in `ticket-keys.ts`).
 */

/**
 * A ticket's data follows its state (issue 14 "lifecycle"). Closed: its own keys, its executor's
 * transcript and its cards (records, full texts, bookkeeping) expire `RETENTION_DAYS` from now.
 * Reopened (a person's follow-up on a done ticket): its own keys are kept again; its cards keep
 * the card lifetime they got at ingest.
 */
export async function applyRetention(ctx: RetentionCtx, id: string, state: TicketState): Promise<void> {
  const own = ticketOwnKeys(ctx.keys, id);
  const refs = ctx.keys.ticketRefs(id);
  const tx = ctx.redis.multi();
  if (!isClosedState(state)) {
    for (const key of [...own, refs]) tx.persist(key);
    await tx.exec();
    return;
  }
  const ttl = retentionMs(ctx);
  for (const key of own) tx.pexpire(key, ttl);
  tx.pexpire(refs, ttl + REFS_GRACE_MS);
  const listed = await ctx.redis.lrange(ctx.keys.ticketCards(id), 0, -1);
  const cards = readAttachments(ctx, listed, ctx.keys.ticketCards(id)).map((a) => a.cardId);
  for (const card of cards) for (const key of cardKeys(ctx.keys, card)) tx.pexpire(key, ttl);
  await tx.exec();
}

/**
 * The tickets past retention: closed before `cutoff` (by `updatedAt`, so tickets closed before
 * retention existed count too, with no migration), or whose record already expired.
 */
export async function expiredTickets(ctx: RetentionCtx, cutoff: number): Promise<string[]> {
  const expired: string[] = [];
  for (let start = 0; ; start += PAGE) {
    const ids = await ctx.redis.zrange(ctx.keys.tickets(), start, start + PAGE - 1);
    if (!ids.length) break;
    const tx = ctx.redis.multi();
    for (const id of ids) tx.hmget(ctx.keys.ticket(id), 'state', 'updatedAt');
    const rows = (await tx.exec()) ?? [];
    ids.forEach((id, i) => {
      const [state, updatedAt] = (rows[i]?.[1] as (string | null)[] | undefined) ?? [];
      if (state === null || state === undefined) expired.push(id);
      else if (closedState(ctx, state, ctx.keys.ticket(id)) && Number(updatedAt) < cutoff) expired.push(id);
    });
    if (ids.length < PAGE) break;
  }
  return expired;
}

/** Deletes one ticket's data and takes it out of every index it is in. */
export async function purgeTicket(ctx: RetentionCtx, id: string): Promise<void> {
  const { keys } = ctx;
  const [refs, attachments] = await Promise.all([
    ctx.redis.smembers(keys.ticketRefs(id)),
    ctx.redis.lrange(keys.ticketCards(id), 0, -1),
  ]);
  const tx = ctx.redis.multi();
  for (const ref of refs) tx.srem(keys.refIndex(ref), id);
  tx.del(...ticketOwnKeys(keys, id), ...ticketTransientKeys(keys, id), keys.ticketRefs(id));
  tx.zrem(keys.tickets(), id).zrem(keys.ticketActivity(), id);
  await tx.exec();
  for (const { cardId } of readAttachments(ctx, attachments, keys.ticketCards(id))) {
    const card = cardKeys(keys, cardId);
    await ctx.redis.eval(
      RELEASE_CARD,
      card.length + 2,
      keys.cardOwners(cardId),
      keys.cardsByTime(),
      ...card,
      id,
      cardId,
    );
  }
}
