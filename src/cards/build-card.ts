import { hash } from 'node:crypto';
import { sanitizeUntrusted } from '../safety/sanitize-text.ts';
import { type CardDraft, TEXT_CAP, type TriggerCard } from './card.ts';
import { truncateClean } from './truncate.ts';

/** The card id is derived from the delivery, so a redelivery maps to the same card. */
export function cardIdFor(source: string, eventId: string): string {
  return `${source}-${hash('sha256', `${source}\0${eventId}`, 'hex').slice(0, 20)}`;
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
  const full = sanitizeUntrusted(input.text);
  const id = cardIdFor(input.source, input.eventId);
  const { text, cut } = truncateClean(full, TEXT_CAP);
  // Built field by field from a typed draft, every bound applied here or by the channel's helpers
  // (`truncateClean`, `itemOpening`, `parentLine`), so there is nothing left for a schema check to
  // find (issue 18: it was a fifth of the webhook's CPU); `build-card.test.ts` holds every output
  // of arbitrary drafts to `TriggerCardSchema`, and reads validate with it (`card-store.ts`).
  // In the schema's key order, as a parse would have written it.
  const card: TriggerCard = {
    id,
    source: input.source,
    kind: input.kind,
    eventId: input.eventId,
    ...(input.action !== undefined ? { action: input.action } : {}),
    receivedAt: now,
    author: input.author,
    origin: input.origin,
    conversation: input.conversation,
    ...(input.replyTo !== undefined ? { replyTo: input.replyTo } : {}),
    request: input.request,
    refs: input.refs,
    ...(input.title !== undefined ? { title: sanitizeUntrusted(input.title) } : {}),
    text,
    ...(cut ? { truncated: { resource: resourcePointer(id), totalChars: full.length } } : {}),
    ...(input.context !== undefined ? { context: input.context } : {}),
    ...(input.facts !== undefined ? { facts: input.facts } : {}),
  };
  return cut ? { card, fullText: full } : { card };
}
