import type { TriggerCard } from '../../cards/card.ts';
import { loadCard } from '../../cards/ingest.ts';
import { splitRepo } from '../../channels/github/client.ts';
import type { Ctx } from '../../context.ts';
import { getChatRepo } from '../../router/chat-repos.ts';
import type { Ticket } from '../../tickets/ticket.ts';
import { ticketAttachments } from '../../tickets/ticket-store.ts';
import { githubAccess } from './github-access.ts';

export type RepoChoice = { repo: string; why: string } | { repo: undefined; why: string };

const NAME = /(?<![\w./@-])([A-Za-z0-9][\w-]*)\/([\w.-]*[\w-])(?![\w/-])/g;

/** `owner/name` candidates a person's text names: refs first (URLs, `o/n#12`), then bare names. */
export function namedRepos(card: TriggerCard): string[] {
  const out: string[] = [];
  for (const r of card.refs) if ('repo' in r) out.push(r.repo);
  const bare = card.text.replace(/https?:\/\/\S+/g, ' ');
  for (const m of bare.matchAll(NAME)) out.push(`${m[1]}/${m[2]}`);
  return [...new Set(out)];
}

/**
 * Which repository a ticket works in (issue 4 "Which repository"): a GitHub card carries its own
 * (already `ticket.repo`); else the first repository a person's card on the ticket names that
 * GitHub knows (the opening request first, then answers to a question); else the chat's default
 * — the panel's per-chat setting, then `CHAT_REPOS`; else none, and the executor must ask.
 */
export async function chooseRepo(ctx: Ctx, ticket: Ticket): Promise<RepoChoice> {
  if (ticket.repo) return { repo: ticket.repo, why: 'the ticket’s repository' };
  for (const a of await ticketAttachments(ctx, ticket.id)) {
    const card = await loadCard(ctx, a.cardId);
    if (card?.author.type !== 'person') continue;
    for (const name of namedRepos(card)) {
      if (await repoExists(ctx, name)) return { repo: name, why: `named in card ${card.id}` };
    }
  }
  const chat = chatOf(ticket);
  const set = chat ? await getChatRepo(ctx, chat) : undefined;
  if (set) return { repo: set, why: `the chat’s default repository (panel)` };
  const env = chat ? ctx.config.CHAT_REPOS.get(chat) : undefined;
  if (env) return { repo: env, why: 'the chat’s default repository (CHAT_REPOS)' };
  return { repo: undefined, why: 'no repository is named in the request and the chat has no default' };
}

function chatOf(ticket: Ticket): string | undefined {
  const o = ticket.origin;
  return o.source === 'github' ? undefined : o.chatId;
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
