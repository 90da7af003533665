import type { TriggerCard } from '../cards/card.ts';

/** A ticket id as the main session's `attach` accepts it in text (`T12`), word-bounded. */
const TICKET_ID = /\bT\d+\b/;
/** A commit as `referenceHolds` matches it in text: 7 to 40 hex characters, word-bounded. */
const COMMIT = /\b[0-9a-f]{7,40}\b/i;

/**
 * Words of a request to change how the bot is prompted (R-E5: the main session alone saves prompt
 * settings, `prompts/dispatch.md`): such a request is not forced to open a ticket. Erring wide only
 * sends more requests to the main session, which is always a correct place for them.
 */
const SETTINGS = /\b(?:prompts?|settings?|paragraphs?|skills?|instructions?|overrides?)\b/i;

/**
 * Issue 18: whether the card's text could name a ticket the way the main session may attach by
 * (R-B2, `referenceHolds`): a ticket id (the bot's branches carry one too) or a commit. Such a card
 * is not "no ticket could be meant": it goes to the main session, as does one that may ask to
 * change the prompt settings. The patterns are linear.
 */
export function mayNameTicket(card: Pick<TriggerCard, 'text' | 'title'>): boolean {
  const text = card.title ? `${card.title}\n${card.text}` : card.text;
  return TICKET_ID.test(text) || COMMIT.test(text) || SETTINGS.test(text);
}
