import type { TriggerCard } from '../../cards/card.ts';
import { loadCard } from '../../cards/ingest.ts';
import { splitRepo } from '../../channels/github/client.ts';
import type { Ctx } from '../../context.ts';
import { boundRepos, sameRepo } from '../../router/chat-bound-repos.ts';
import { standingOn } from '../../router/ticket-standing.ts';
import type { Ticket } from '../../tickets/ticket.ts';
import { ticketAttachments } from '../../tickets/ticket-store.ts';
import { githubAccess } from './github-access.ts';

/** Issue 31: repositories a chat card named that are not bound to its chat (the person is told). */
export interface UnboundNames {
  card: TriggerCard;
  repos: string[];
  bound: string[];
}

export type RepoChoice =
  | { repo: string; why: string }
  | { repo: undefined; why: string; unbound?: UnboundNames };

const NAME = /(?<![\w./@-])([A-Za-z0-9][\w-]*)\/([\w.-]*[\w-])(?![\w/-])/g;

/** A bare `a/b` ending like a source file (`src/login.ts`) is a path, not a repository. */
const FILE_LIKE =
  /\.(?:[cm]?[jt]sx?|md|json|ya?ml|toml|lock|css|scss|html?|py|go|rs|rb|java|kt|sh|txt|sql|xml|vue|svelte)$/i;

/** `owner/name` candidates a person's text names: refs first (URLs, `o/n#12`), then bare names. */
export function namedRepos(card: TriggerCard): string[] {
  const out: string[] = [];
  for (const r of card.refs) if ('repo' in r) out.push(r.repo);
  const bare = card.text.replace(/https?:\/\/\S+/g, ' ');
  for (const m of bare.matchAll(NAME)) out.push(`${m[1]}/${m[2]}`);
  return [...new Set(out)];
}

/**
 * Which repository a ticket works in (issue 4 "Which repository", issue 31). A GitHub ticket
 * works in its own repository, always. A Feishu ticket works only in a repository bound to its
 * chat (`boundRepos`): the first bound one a steering card names, else the chat's default; a
 * card naming only unbound repositories gets none (`unbound`: the person is told, nothing is
 * touched there). The panel's local chat is the operator's: any repository GitHub knows that a
 * card names, else the chat's default (its `/repo`, else `CHAT_REPOS`). Names count only from
 * cards whose authors may steer the ticket (`standingOn`): a card attached from elsewhere is data.
 */
export async function chooseRepo(ctx: Ctx, ticket: Ticket): Promise<RepoChoice> {
  const o = ticket.origin;
  if (o.source === 'github') return { repo: o.repo, why: 'the ticket’s own repository' };
  if (o.source === 'feishu') return chooseBound(ctx, ticket, await boundRepos(ctx, o.chatId));
  if (ticket.repo) return { repo: ticket.repo, why: 'the ticket’s repository' };
  for (const card of await steeringCards(ctx, ticket)) {
    for (const name of namedRepos(card)) {
      if (await repoExists(ctx, name)) return { repo: name, why: `named in card ${card.id}` };
    }
  }
  const [dflt] = await boundRepos(ctx, o.chatId);
  if (dflt) return { repo: dflt, why: 'the chat’s default repository' };
  return {
    repo: undefined,
    why: 'no repository is named in the request and the chat has no default; ask which repository through report with human_action (issue 4)',
  };
}

/** Issue 31: a Feishu ticket's choice among its chat's bound repositories; GitHub is not asked. */
async function chooseBound(ctx: Ctx, ticket: Ticket, bound: string[]): Promise<RepoChoice> {
  const known = ticket.repo;
  if (known) {
    if (bound.some((r) => sameRepo(r, known))) return { repo: known, why: 'the ticket’s repository' };
    return { repo: undefined, why: `${known} is no longer bound to this chat; work in no repository` };
  }
  let unbound: UnboundNames | undefined;
  for (const card of await steeringCards(ctx, ticket)) {
    for (const name of namedRepos(card)) {
      const hit = bound.find((r) => sameRepo(r, name));
      if (hit) return { repo: hit, why: `named in card ${card.id} (bound to this chat)` };
    }
    const foreign = namedRepos(card).filter((n) => meansRepo(card, n));
    if (!unbound && foreign.length) unbound = { card, repos: foreign, bound };
  }
  const list = bound.join(', ') || 'none';
  if (unbound)
    return {
      repo: undefined,
      why: `${unbound.repos.join(', ')} (named in card ${unbound.card.id}) is not bound to this chat, which works only in: ${list}. The person was told who can bind it; touch no other repository, and say what you need through report with human_action`,
      unbound,
    };
  if (bound[0]) return { repo: bound[0], why: `the chat’s default repository (bound: ${list})` };
  return {
    repo: undefined,
    why: 'this chat has no repository bound (a settings admin binds one with /repo owner/name, the operator in the panel’s Setup); say so through report with human_action',
  };
}

/**
 * Issue 31: whether the ticket may work in `repo` at all — its own repository on GitHub, one
 * bound to its chat on Feishu, any in the panel's local chat. Checked again on a recorded
 * checkout, so unbinding a repository stops a ticket there.
 */
export async function mayWorkIn(ctx: Ctx, ticket: Ticket, repo: string): Promise<boolean> {
  const o = ticket.origin;
  switch (o.source) {
    case 'github':
      return sameRepo(repo, o.repo) || (ticket.repo !== undefined && sameRepo(repo, ticket.repo));
    case 'feishu':
      return (await boundRepos(ctx, o.chatId)).some((r) => sameRepo(r, repo));
    case 'local':
      return true;
  }
}

/** The people's cards of the ticket, oldest first, whose authors may steer it (R-H5). */
async function steeringCards(ctx: Ctx, ticket: Ticket): Promise<TriggerCard[]> {
  const out: TriggerCard[] = [];
  for (const a of await ticketAttachments(ctx, ticket.id)) {
    const card = await loadCard(ctx, a.cardId);
    if (card?.author.type === 'person' && standingOn(card, ticket, ctx.config).steers) out.push(card);
  }
  return out;
}

/** A name means a repository when it is a reference (URL, `o/n#12`) or a bare name not shaped like a file. */
function meansRepo(card: TriggerCard, name: string): boolean {
  return card.refs.some((r) => 'repo' in r && r.repo === name) || !FILE_LIKE.test(name);
}

async function repoExists(ctx: Ctx, fullName: string): Promise<boolean> {
  try {
    await (await githubAccess(ctx).client(fullName)).rest.repos.get(splitRepo(fullName));
    return true;
  } catch (err) {
    if ((err as { status?: number }).status === 404) return false;
    throw err;
  }
}
