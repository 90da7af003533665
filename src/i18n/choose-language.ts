import type { TriggerCard } from '../cards/card.ts';
import { loadCard } from '../cards/card-store.ts';
import type { Ctx } from '../context.ts';
import type { Ticket } from '../tickets/ticket.ts';
import { chatOf, getChatLanguage } from './chat-language-store.ts';
import { languageOfText } from './detect-language.ts';
import type { Lang } from './lang.ts';

type ChooseCtx = Pick<Ctx, 'redis' | 'keys' | 'log'>;

/**
 * The language of an answer to a card (issue 16): the chat's fixed language when it has one, else
 * the language the person wrote in. A button press has no words of its own: it answers in the
 * language of `fallback` (the ticket the button belongs to).
 */
export async function languageForCard(
  ctx: ChooseCtx,
  card: TriggerCard,
  fallback?: () => Promise<Lang>,
): Promise<Lang> {
  const fixed = await getChatLanguage(ctx, chatOf(card.origin));
  if (fixed) return fixed;
  if (card.kind === 'card_action' && fallback) return fallback();
  return languageOfText(card.text);
}

/** The language of a ticket's notices: its chat's fixed language, else that of its opening request. */
export async function languageForTicket(
  ctx: ChooseCtx,
  ticket: Pick<Ticket, 'origin' | 'openedBy'>,
): Promise<Lang> {
  const fixed = await getChatLanguage(ctx, chatOf(ticket.origin));
  if (fixed) return fixed;
  const opening = await loadCard(ctx, ticket.openedBy);
  return opening ? languageOfText(opening.text) : 'en';
}
