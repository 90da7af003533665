import { sanitizeUntrusted } from '../safety/sanitize-text.ts';
import { CONTEXT_OPENING, type TriggerCard } from './card.ts';
import { truncateClean } from './truncate.ts';

type CardContext = NonNullable<TriggerCard['context']>;

/** The opening of an issue's or PR's body for a comment's card (R-H6): sanitized, cut cleanly. */
export function itemOpening(author: string, body: string | null | undefined): CardContext['item'] {
  const clean = sanitizeUntrusted(body ?? '').trim();
  const { text, cut } = truncateClean(clean, CONTEXT_OPENING);
  return { author, opening: text, cut };
}

/** A replied-to message's author and first non-empty line, at most 300 characters. */
export function parentLine(id: string, author: string, text: string): CardContext['parent'] {
  const first =
    sanitizeUntrusted(text)
      .split('\n')
      .find((l) => l.trim()) ?? '';
  const line = first.trim();
  return { id, author, firstLine: line.length > 300 ? `${line.slice(0, 299)}…` : line };
}
