import type { CardDraft } from './card.ts';

/**
 * What a channel's parser makes of one verified event, the same for every channel (issue 20):
 * a card draft for `ingest`; `ignored` for events and actions we don't handle (acknowledged,
 * nothing stored); `invalid` for a payload of an unexpected shape (answered 400). Tagged by
 * `kind`, as every multi-variant outcome is (AGENTS.md, "Result unions").
 */
export type ParseOutcome =
  | { kind: 'card'; draft: CardDraft }
  | { kind: 'ignored'; reason: string }
  | { kind: 'invalid'; message: string };

export const parsedCard = (draft: CardDraft): ParseOutcome => ({ kind: 'card', draft });
export const ignored = (reason: string): ParseOutcome => ({ kind: 'ignored', reason });
export const invalidEvent = (message: string): ParseOutcome => ({ kind: 'invalid', message });
