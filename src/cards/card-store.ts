import type { Ctx } from '../context.ts';
import { parseRecord, readRecord } from '../store/parse-record.ts';
import { type TriggerCard, TriggerCardSchema } from './card.ts';

/** What `TriggerCardSchema` allows a card id to be. */
const CARD_ID = /^[\w-]{1,200}$/;

type CardCtx = Pick<Ctx, 'redis' | 'keys' | 'log'>;

/**
 * The owner of a stored card (issue 20), beside `ingest` which claims a delivery and stores its
 * card in one script. Reads validate against `TriggerCardSchema`.
 */

/**
 * Reads a stored card, or undefined when it is unknown or expired. A stored card that fails the
 * schema is logged and thrown as `StoredRecordError` (code `invalid_record`), never cast.
 */
export async function loadCard(ctx: CardCtx, cardId: string): Promise<TriggerCard | undefined> {
  // Issue 31: an id of another shape (`C1:full`, from a tool's arguments) would name another key.
  if (!CARD_ID.test(cardId)) return undefined;
  const key = ctx.keys.card(cardId);
  const raw = await ctx.redis.get(key);
  return raw ? parseRecord(ctx, TriggerCardSchema, raw, key) : undefined;
}

/** The whole text of a truncated card (its resource pointer, R-A3), or null when none is kept. */
export function loadCardFullText(ctx: CardCtx, cardId: string): Promise<string | null> {
  return ctx.redis.get(ctx.keys.cardFull(cardId));
}

/**
 * Writes back a card enriched after ingest (an author's permission, a parent message, a pressed
 * answer), keeping the card's time to live.
 */
export async function replaceCard(ctx: CardCtx, card: TriggerCard): Promise<void> {
  await ctx.redis.set(ctx.keys.card(card.id), JSON.stringify(card), 'KEEPTTL');
}

/**
 * Reads many stored cards in one round trip, in order; an unknown, expired or unreadable card is
 * undefined (the unreadable one logged by `parseRecord`).
 */
export async function loadCards(
  ctx: CardCtx,
  cardIds: readonly string[],
): Promise<(TriggerCard | undefined)[]> {
  if (cardIds.length === 0) return [];
  const keys = cardIds.map((id) => ctx.keys.card(id));
  const raws = await ctx.redis.mget(...keys);
  return raws.map((raw, i) => {
    if (!raw) return undefined;
    const read = readRecord(ctx, TriggerCardSchema, raw, keys[i] as string);
    return read.ok ? read.value : undefined;
  });
}
