import { loadCard } from '../../cards/ingest.ts';
import { splitRepo } from '../../channels/github/client.ts';
import type { Ctx } from '../../context.ts';
import { ticketAttachments } from '../../tickets/ticket-store.ts';
import { githubAccess } from './github-access.ts';

/** The numbers of the PRs in `repo` that the ticket's cards name (structural or written refs). */
export async function ticketPulls(ctx: Ctx, ticketId: string, repo: string | undefined): Promise<number[]> {
  if (!repo) return [];
  const out = new Set<number>();
  for (const a of await ticketAttachments(ctx, ticketId)) {
    const card = await loadCard(ctx, a.cardId);
    for (const r of card?.refs ?? [])
      if (r.type === 'pr' && r.repo.toLowerCase() === repo.toLowerCase()) out.add(r.number);
  }
  return [...out].sort((a, b) => a - b);
}

/**
 * Whether the ticket's work involves code from a fork (issue 13 "Untrusted checkout content"): a
 * PR of the ticket whose head lives in another repository (or in a deleted one). Its commands
 * then run with no network at all, whatever `SANDBOX_NETWORK` says, so code written by someone
 * outside the repository cannot send anything anywhere. Fails closed: a PR GitHub cannot show
 * counts as a fork's.
 */
export async function involvesForkCode(
  ctx: Ctx,
  ticketId: string,
  repo: string | undefined,
): Promise<boolean> {
  const pulls = await ticketPulls(ctx, ticketId, repo);
  if (!repo || !pulls.length) return false;
  const client = await githubAccess(ctx).client(repo);
  for (const pull_number of pulls) {
    const head = await client.rest.pulls
      .get({ ...splitRepo(repo), pull_number })
      .then((r) => r.data.head.repo?.full_name)
      .catch(() => undefined);
    if (head?.toLowerCase() !== repo.toLowerCase()) return true;
  }
  return false;
}
