import type { Ctx } from '../context.ts';
import type { Attachment, TicketState } from './ticket.ts';
import { cardKeys, ticketOwnKeys } from './ticket-keys.ts';

type RetentionCtx = Pick<Ctx, 'redis' | 'keys' | 'config' | 'now'>;

const DAY_MS = 24 * 3600 * 1000;

/** States after which a ticket takes no more work unless a person reopens it. */
export const isClosedState = (state: string | undefined): boolean =>
  state === 'done' || state === 'cancelled';

export const retentionMs = (ctx: Pick<Ctx, 'config'>): number => ctx.config.RETENTION_DAYS * DAY_MS;

/** The reference list outlives the rest by this much, so the sweep can still clean the index. */
const REFS_GRACE_MS = 7 * DAY_MS;

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
  const cards = (await ctx.redis.lrange(ctx.keys.ticketCards(id), 0, -1)).map(
    (s) => (JSON.parse(s) as Attachment).cardId,
  );
  for (const card of cards) for (const key of cardKeys(ctx.keys, card)) tx.pexpire(key, ttl);
  await tx.exec();
}
