import { loadCard } from '../../cards/ingest.ts';
import { splitRepo } from '../../channels/github/client.ts';
import type { Ctx } from '../../context.ts';
import { ticketAttachments } from '../../tickets/ticket-store.ts';
import { githubAccess } from './github-access.ts';

/** What the ticket's cards name in `repo`: PRs (structural refs, PR URLs) and `#N` items, which may be PRs. */
async function namedItems(ctx: Ctx, ticketId: string, repo: string) {
  const pulls = new Set<number>();
  const items = new Set<number>();
  for (const a of await ticketAttachments(ctx, ticketId)) {
    const card = await loadCard(ctx, a.cardId);
    for (const r of card?.refs ?? []) {
      if ((r.type !== 'pr' && r.type !== 'issue') || r.repo.toLowerCase() !== repo.toLowerCase()) continue;
      (r.type === 'pr' ? pulls : items).add(r.number);
    }
  }
  const sorted = (s: Set<number>) => [...s].sort((a, b) => a - b);
  return { pulls: sorted(pulls), items: sorted(items).filter((n) => !pulls.has(n)) };
}

/** The numbers of the PRs in `repo` that the ticket's cards name (structural or written refs). */
export async function ticketPulls(ctx: Ctx, ticketId: string, repo: string | undefined): Promise<number[]> {
  return repo ? (await namedItems(ctx, ticketId, repo)).pulls : [];
}

/** Issue 45: at most this many `#N` items are looked up per turn; past it the turn has no network. */
const ITEMS_LOOKED_UP = 20;

/**
 * Whether the ticket's work involves code from a fork (issue 13 "Untrusted checkout content"): a
 * PR of the ticket whose head lives in another repository (or in a deleted one). Its commands
 * then run with no network at all, whatever `SANDBOX_NETWORK` says, so code written by someone
 * outside the repository cannot send anything anywhere. Fails closed: a PR GitHub cannot show
 * counts as a fork's. Issue 45: a PR named as `owner/name#N` or `#N` (an `issue` ref: GitHub
 * numbers both alike) counts as well — it left egress on; such an item GitHub answers 404 for as a
 * PR is an issue, and more than `ITEMS_LOOKED_UP` of them fail closed.
 */
export async function involvesForkCode(
  ctx: Ctx,
  ticketId: string,
  repo: string | undefined,
): Promise<boolean> {
  if (!repo) return false;
  const { pulls, items } = await namedItems(ctx, ticketId, repo);
  if (!pulls.length && !items.length) return false;
  if (items.length > ITEMS_LOOKED_UP) return true;
  const client = await githubAccess(ctx).client(repo);
  const own = repo.toLowerCase();
  // A PR's head repository; null when GitHub has no such PR (an issue), undefined when it cannot tell.
  const headOf = (pull_number: number): Promise<string | null | undefined> =>
    client.rest.pulls.get({ ...splitRepo(repo), pull_number }).then(
      (r) => r.data.head.repo?.full_name?.toLowerCase(),
      (err: { status?: number }) => (err.status === 404 ? null : undefined),
    );
  for (const n of pulls) if ((await headOf(n)) !== own) return true;
  for (const n of items) {
    const head = await headOf(n);
    if (head !== null && head !== own) return true;
  }
  return false;
}
