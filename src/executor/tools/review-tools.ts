import { z } from 'zod';
import type { TriggerCard } from '../../cards/card.ts';
import { loadCard } from '../../cards/ingest.ts';
import { splitRepo } from '../../channels/github/client.ts';
import { enqueueEffect } from '../../outbox/enqueue.ts';
import { defineTool, toolError, toolOk } from '../../session/tool.ts';
import { recordTaken, wasTakenBy } from '../../tickets/handback.ts';
import { isCardOwner } from '../../tickets/ownership.ts';
import type { TurnScope } from '../turn-scope.ts';
import { headAndTree, passingFor } from '../verified-head.ts';
import { isNoted } from '../workspace/bot-rounds.ts';
import { lastPush, pushesOf, ticketPr, verifications } from '../workspace/delivery-records.ts';
import { githubAccess } from '../workspace/github-access.ts';
import { inWorkspace } from '../workspace/work-gate.ts';
import { gitIn } from '../workspace/workspace.ts';

const THREADS = `query($owner: String!, $repo: String!, $number: Int!, $after: String) {
  repository(owner: $owner, name: $repo) { pullRequest(number: $number) {
    reviewThreads(first: 100, after: $after) {
      pageInfo { hasNextPage endCursor }
      nodes { id comments(first: 100) { nodes { databaseId } } }
    }
  } }
}`;

/** Pages of 100 threads read at most when looking for one (GitHub's `first` limit is 100). */
const MAX_THREAD_PAGES = 50;

interface Threads {
  repository: {
    pullRequest: {
      reviewThreads: {
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
        nodes: { id: string; comments: { nodes: { databaseId: number }[] } }[];
      };
    } | null;
  } | null;
}

/**
 * The GraphQL id of the review thread holding a comment, page by page through the PR's threads
 * (issue 46: a PR with more than 100 threads has its later ones on later pages).
 */
async function threadOf(scope: TurnScope, repo: string, number: number, commentId: number) {
  const client = await githubAccess(scope.rt.ctx).client(repo);
  let after: string | null = null;
  for (let page = 0; page < MAX_THREAD_PAGES; page++) {
    const res: Threads = await client.graphql<Threads>(THREADS, { ...splitRepo(repo), number, after });
    const threads = res.repository?.pullRequest?.reviewThreads;
    const found = threads?.nodes.find((t) => t.comments.nodes.some((c) => c.databaseId === commentId));
    if (found) return found.id;
    if (!threads?.pageInfo.hasNextPage || !threads.pageInfo.endCursor) return undefined;
    after = threads.pageInfo.endCursor;
  }
  return undefined;
}

/**
 * `resolve_review_thread({ card, outcome })` (R-C7 "reviews by outcome"): resolves, silently, the
 * review thread of a comment on the ticket's PR. "fixed": a commit made after the comment, pushed,
 * with a passing verification at it. "answered": only an automated reviewer's thread, after the
 * executor replied to it. A person's rejected comment gets one sentence through `reply` instead.
 */
export function resolveReviewThreadTool(scope: TurnScope) {
  const { ctx } = scope.rt;
  return defineTool({
    name: 'resolve_review_thread',
    description:
      'Resolve the review thread of a review-comment card on the ticket’s PR, without a comment. outcome "fixed" (the fix is committed, pushed and verified) or "answered" (an automated reviewer’s thread you replied to).',
    parameters: z.object({ card: z.string().min(1), outcome: z.enum(['fixed', 'answered']) }),
    run: ({ card: id, outcome }) =>
      inWorkspace(scope, async (ws, login) => {
        const card = (await isCardOwner(ctx, id, scope.ticket.id)) ? await loadCard(ctx, id) : undefined;
        const pr = await ticketPr(ctx, scope.ticket.id);
        const o = card?.origin;
        if (!card || o?.source !== 'github' || card.kind !== 'review_comment' || o.commentId === undefined)
          return toolError(`refused: ${id} is not a review comment on this ticket`);
        if (!pr || o.repo.toLowerCase() !== pr.repo.toLowerCase() || o.number !== pr.number)
          return toolError(`refused: ${id} is not on the ticket’s PR`);
        if (await isNoted(scope, id))
          return toolError(`refused: ${id} is noted, not worked (R-C7: past three rounds)`);
        const why =
          outcome === 'fixed'
            ? await notFixed(scope, card, gitIn(scope, ws, login))
            : await notAnswered(scope, card);
        if (why) return toolError(`refused: ${why} (R-C7)`);
        const threadId = await threadOf(scope, pr.repo, pr.number, o.commentId);
        if (!threadId) return toolError(`no review thread holds comment ${o.commentId}`);
        // Resolving is taking the card (R-C3): it is not handed back when the turn ends.
        await recordTaken(ctx, id, scope.ticket.id);
        await enqueueEffect(ctx, {
          key: `resolve:${threadId}`,
          effect: { op: 'github.resolve_thread', threadId, repo: pr.repo },
          ticketId: scope.ticket.id,
        });
        return toolOk(`resolving ${threadId} (no comment posted)`);
      }),
  });
}

async function notFixed(scope: TurnScope, card: TriggerCard, g: ReturnType<typeof gitIn>) {
  // HEAD and its tree in one sandboxed git run: the time check needs the one, the file check the other.
  const at = await headAndTree(g);
  const { head } = at;
  if ((await g.remoteHead()) !== head) return 'HEAD is not pushed';
  // When the bot pushed HEAD, by its own clock: a commit's dates are whatever its maker set (a
  // `git commit` in run_command can date it 2099). A HEAD pushed before pushes were noted has only
  // its commit time.
  const pushes = await pushesOf(scope.rt.ctx, scope.ticket.id);
  const pushed =
    pushes.find((p) => p.sha === head)?.at ??
    Number(await g.run(['log', '-1', '--format=%ct', 'HEAD'])) * 1000;
  if (pushed + 1000 < card.receivedAt) return 'no commit since the comment arrived';
  // A commit that changes no file (git commit --allow-empty) fixes nothing.
  const before = lastPush(pushes, card.receivedAt);
  if (before && before.tree === at.tree)
    return 'no file changed since the comment arrived (HEAD holds the files pushed before it)';
  // Issue 28: a verification counts for the commit whose files it ran on.
  const runs = await verifications(scope.rt.ctx, scope.ticket.id);
  if (!passingFor(runs, at)) return 'no passing verification at HEAD';
  return undefined;
}

async function notAnswered(scope: TurnScope, card: TriggerCard) {
  if (card.author.type !== 'bot')
    return 'a person’s thread is resolved only when fixed; a rejection gets one sentence through reply, and the thread stays theirs';
  if (!(await wasTakenBy(scope.rt.ctx, card.id, scope.ticket.id)))
    return 'answer the thread with reply first';
  return undefined;
}
