import type { TriggerCard } from '../cards/card.ts';
import { loadCard } from '../cards/ingest.ts';
import type { Ctx } from '../context.ts';
import { boundRepos, sameRepo } from '../router/chat-bound-repos.ts';
import { isCardOwner } from '../tickets/ownership.ts';
import type { Ticket } from '../tickets/ticket.ts';
import { ticketAttachments } from '../tickets/ticket-store.ts';

/** What a ticket may read at the source (R-H6): its repositories and its chats, nothing else. */
export interface SourceScope {
  /** `owner/name`, lower-cased: the ticket's repository and those its GitHub cards came from. */
  repos: Set<string>;
  /** Feishu chat ids its cards came from. */
  chats: Set<string>;
}

/**
 * The ticket's sources, decided in code (R-H5, R-H6): the ticket's own repository and chat, and
 * the repositories and chats of the cards attached to it. A name the model types is never added.
 * Issue 31: a Feishu ticket's repository counts only while it is bound to the ticket's chat.
 */
export async function sourceScope(
  ctx: Pick<Ctx, 'redis' | 'keys' | 'log' | 'config'>,
  ticket: Ticket,
  batch: Iterable<TriggerCard> = [],
): Promise<SourceScope> {
  const scope: SourceScope = { repos: new Set(), chats: new Set() };
  if (ticket.repo && (await repoOfItsPlace(ctx, ticket, ticket.repo)))
    scope.repos.add(ticket.repo.toLowerCase());
  addOrigin(scope, ticket.origin);
  for (const card of batch) addOrigin(scope, card.origin);
  for (const a of await ticketAttachments(ctx, ticket.id)) {
    const card = await loadCard(ctx, a.cardId);
    if (card) addOrigin(scope, card.origin);
  }
  return scope;
}

async function repoOfItsPlace(ctx: Pick<Ctx, 'redis' | 'keys' | 'config'>, ticket: Ticket, repo: string) {
  const o = ticket.origin;
  return o.source !== 'feishu' || (await boundRepos(ctx, o.chatId)).some((r) => sameRepo(r, repo));
}

function addOrigin(scope: SourceScope, o: TriggerCard['origin']): void {
  if (o.source === 'github') scope.repos.add(o.repo.toLowerCase());
  else if (o.source === 'feishu') scope.chats.add(o.chatId);
}

/** Whether a card belongs to the ticket: attached to it (an owner) or in this turn's batch. */
export async function isTicketCard(
  ctx: Pick<Ctx, 'redis' | 'keys'>,
  ticketId: string,
  cardId: string,
): Promise<boolean> {
  return isCardOwner(ctx, cardId, ticketId);
}
