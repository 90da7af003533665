import type { Ctx } from '../context.ts';
import { loadCard, loadCardFullText } from './card-store.ts';

/** A card's whole text: the stored full text of a truncated card, else its text (R-A3). */
export async function cardFullText(
  ctx: Pick<Ctx, 'redis' | 'keys' | 'log'>,
  id: string,
): Promise<{ text: string; truncated: boolean } | undefined> {
  const card = await loadCard(ctx, id);
  if (!card) return undefined;
  const full = card.truncated ? await loadCardFullText(ctx, id) : null;
  return { text: full ?? card.text, truncated: Boolean(card.truncated) };
}

/** The most of a card's text one read returns. */
export const CARD_PAGE = 16_000;

/**
 * One page of a card's whole text for a model (R-H6): characters `offset`… up to `limit`, with
 * how to read on. A card's text was sanitized when it was built; it is still data.
 */
export async function cardTextPage(
  ctx: Pick<Ctx, 'redis' | 'keys' | 'log'>,
  id: string,
  offset = 0,
  limit = CARD_PAGE,
): Promise<string | undefined> {
  const whole = await cardFullText(ctx, id);
  if (!whole) return undefined;
  const { text } = whole;
  const start = Math.min(Math.max(0, offset), text.length);
  const end = Math.min(text.length, start + Math.min(Math.max(1, limit), CARD_PAGE));
  const more = end < text.length ? `[more: call read_card again with offset=${end}]` : '[end of card]';
  const safe = text.slice(start, end).replace(/<(\/?)card\b/gi, '&lt;$1card');
  return `Card ${id}, characters ${start}–${end} of ${text.length}:\n<card-text id="${id}">\n${safe}\n</card-text>\n${more}`;
}
