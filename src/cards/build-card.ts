import { createHash } from 'node:crypto';
import { sanitizeUntrusted } from '../safety/sanitize-text.ts';
import { type CardDraft, TEXT_CAP, type TriggerCard, TriggerCardSchema } from './card.ts';
import { truncateClean } from './truncate.ts';

/** The card id is derived from the delivery, so a redelivery maps to the same card. */
export function cardIdFor(source: string, eventId: string): string {
  return `${source}-${createHash('sha256').update(`${source}\0${eventId}`).digest('hex').slice(0, 20)}`;
}

/** Where the whole text of a truncated card can be fetched (R-A3). */
export function resourcePointer(cardId: string): string {
  return `/api/cards/${cardId}/text`;
}

/**
 * Turns a channel's draft into a schema-checked card. Text over the cap is cut at a clean
 * boundary and only then carries a resource pointer; `fullText` is what ingest must keep. Hidden
 * markup is stripped first (issue 8), from the stored full text too: the original stays on its
 * platform, and nothing a model can fetch carries it.
 */
export function buildCard(input: CardDraft, now = Date.now()): { card: TriggerCard; fullText?: string } {
  const draft = {
    ...input,
    text: sanitizeUntrusted(input.text),
    ...(input.title ? { title: sanitizeUntrusted(input.title) } : {}),
  };
  const id = cardIdFor(draft.source, draft.eventId);
  const { text, cut } = truncateClean(draft.text, TEXT_CAP);
  const card = TriggerCardSchema.parse({
    ...draft,
    id,
    receivedAt: now,
    text,
    ...(cut ? { truncated: { resource: resourcePointer(id), totalChars: draft.text.length } } : {}),
  });
  return cut ? { card, fullText: draft.text } : { card };
}
