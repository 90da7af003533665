import type { TriggerCard } from '../cards/card.ts';
import { loadCard } from '../cards/ingest.ts';
import type { Ctx } from '../context.ts';
import { boundRepos, sameRepo } from '../router/chat-bound-repos.ts';
import { standingOn } from '../router/ticket-standing.ts';
import { dataLabels } from '../tickets/attach.ts';
import { isCardOwner } from '../tickets/ownership.ts';
import type { Ticket } from '../tickets/ticket.ts';
import { ticketAttachments } from '../tickets/ticket-store.ts';

/** What a ticket may read at the source (R-H6): its repositories and its chats, nothing else. */
export interface SourceScope {
  /** `owner/name`, lower-cased: the ticket's repository and those its own GitHub cards came from. */
  repos: Set<string>;
  /** Feishu chat ids its own cards came from. */
  chats: Set<string>;
  /**
   * Issue 45: the items of its data cards, `owner/name#N` lower-cased — that issue or PR alone is
   * readable, never the rest of its repository.
   */
  items: Set<string>;
  /** Issue 45: the Feishu messages of its data cards — that message alone, never its chat. */
  messages: Set<string>;
}

/**
 * The ticket's sources, decided in code (R-H5, R-H6): the ticket's own repository and chat, and
 * the repositories and chats of the cards whose standing on it is its own. A name the model types
 * is never added. Issue 31: a Feishu ticket's repository counts only while it is bound to the
 * ticket's chat. Issue 45: a data card (from another repository or chat, or an author who may not
 * steer the ticket) adds only its own item: a writer of a private repository cross-referencing the
 * ticket must not open that repository to the ticket's steerers (a confused deputy).
 */
export async function sourceScope(
  ctx: Pick<Ctx, 'redis' | 'keys' | 'log' | 'config'>,
  ticket: Ticket,
  batch: Iterable<TriggerCard> = [],
): Promise<SourceScope> {
  const scope: SourceScope = { repos: new Set(), chats: new Set(), items: new Set(), messages: new Set() };
  if (ticket.repo && (await repoOfItsPlace(ctx, ticket, ticket.repo)))
    scope.repos.add(ticket.repo.toLowerCase());
  addOrigin(scope, ticket.origin);
  const cards = [...batch];
  for (const a of await ticketAttachments(ctx, ticket.id)) {
    const card = await loadCard(ctx, a.cardId);
    if (card) cards.push(card);
  }
  const labelled = await dataLabels(
    ctx,
    ticket.id,
    cards.map((c) => c.id),
  );
  for (const card of cards) {
    const data = labelled.has(card.id) || standingOn(card, ticket, ctx.config).dataLabel !== undefined;
    if (data) addItem(scope, card.origin);
    else addOrigin(scope, card.origin);
  }
  return scope;
}

/**
 * Issue 45: may `what` of `repo` (`#number`) be read? Any read of the ticket's own repositories;
 * of a data card's item, only its title and body (`issue`) — not its thread, diff or checks.
 */
export function mayReadGitHub(scope: SourceScope, repo: string, what: string, number?: number): boolean {
  const key = repo.toLowerCase();
  if (scope.repos.has(key)) return true;
  return what === 'issue' && number !== undefined && scope.items.has(`${key}#${number}`);
}

async function repoOfItsPlace(ctx: Pick<Ctx, 'redis' | 'keys' | 'config'>, ticket: Ticket, repo: string) {
  const o = ticket.origin;
  return o.source !== 'feishu' || (await boundRepos(ctx, o.chatId)).some((r) => sameRepo(r, repo));
}

function addOrigin(scope: SourceScope, o: TriggerCard['origin']): void {
  if (o.source === 'github') scope.repos.add(o.repo.toLowerCase());
  else if (o.source === 'feishu') scope.chats.add(o.chatId);
}

function addItem(scope: SourceScope, o: TriggerCard['origin']): void {
  if (o.source === 'github' && o.number) scope.items.add(`${o.repo.toLowerCase()}#${o.number}`);
  else if (o.source === 'feishu') scope.messages.add(o.messageId);
}

/** Whether a card belongs to the ticket: attached to it (an owner) or in this turn's batch. */
export async function isTicketCard(
  ctx: Pick<Ctx, 'redis' | 'keys'>,
  ticketId: string,
  cardId: string,
): Promise<boolean> {
  return isCardOwner(ctx, cardId, ticketId);
}
