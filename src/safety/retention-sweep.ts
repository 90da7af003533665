import type { Ctx } from '../context.ts';
import { localCheckouts, releaseCheckout } from '../executor/workspace/release-checkout.ts';
import { isClosedState, retentionMs } from '../tickets/retention.ts';
import type { Attachment } from '../tickets/ticket.ts';
import { cardKeys, ticketOwnKeys } from '../tickets/ticket-keys.ts';

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

export interface SweepResult {
  purged: string[];
  checkouts: string[];
}

/**
 * The retention sweep (issue 14 "lifecycle"), a safety-queue job: tickets closed longer than
 * `RETENTION_DAYS` ago (or whose record already expired) leave every index and take their data
 * with them; checkouts of closed or vanished tickets are deleted from this machine's disk.
 * Tickets closed before retention existed are caught by their `updatedAt`, so no migration.
 */
export async function sweepRetention(ctx: Ctx): Promise<SweepResult> {
  const cutoff = ctx.now() - retentionMs(ctx);
  const purged: string[] = [];
  for (let start = 0; ; start += PAGE) {
    const ids = await ctx.redis.zrange(ctx.keys.tickets(), start, start + PAGE - 1);
    const tx = ctx.redis.multi();
    for (const id of ids) tx.hmget(ctx.keys.ticket(id), 'state', 'updatedAt');
    const rows = ids.length ? ((await tx.exec()) ?? []) : [];
    const expired = ids.filter((_, i) => {
      const [state, updatedAt] = (rows[i]?.[1] as (string | null)[] | undefined) ?? [];
      if (state === null || state === undefined) return true;
      return isClosedState(JSON.parse(state)) && Number(updatedAt) < cutoff;
    });
    for (const id of expired) await purgeTicket(ctx, id);
    purged.push(...expired);
    // Purged ids left the sorted set: the next page starts that many places earlier.
    start -= expired.length;
    if (ids.length < PAGE) break;
  }
  const checkouts: string[] = [];
  for (const id of await localCheckouts(ctx)) {
    const [state, lock] = await Promise.all([
      ctx.redis.hget(ctx.keys.ticket(id), 'state'),
      ctx.redis.exists(ctx.keys.turnLock(id)),
    ]);
    if (lock || (state !== null && !isClosedState(JSON.parse(state)))) continue;
    await releaseCheckout(ctx, id);
    checkouts.push(id);
  }
  if (purged.length || checkouts.length) ctx.log.info({ purged, checkouts }, 'retention sweep');
  return { purged, checkouts };
}

/** Deletes one ticket's data and takes it out of every index it is in. */
export async function purgeTicket(ctx: Ctx, id: string): Promise<void> {
  const { keys } = ctx;
  const [refs, attachments] = await Promise.all([
    ctx.redis.smembers(keys.ticketRefs(id)),
    ctx.redis.lrange(keys.ticketCards(id), 0, -1),
  ]);
  const tx = ctx.redis.multi();
  for (const ref of refs) tx.srem(keys.refIndex(ref), id);
  tx.del(...ticketOwnKeys(keys, id), keys.ticketRefs(id));
  tx.zrem(keys.tickets(), id).zrem(keys.ticketActivity(), id);
  await tx.exec();
  for (const raw of attachments) {
    const { cardId } = JSON.parse(raw) as Attachment;
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
