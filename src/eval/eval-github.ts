import type { DemoPull } from '../demo/demo-pull.ts';
import {
  type GitHubRoute,
  json,
  type LocalGitHub,
  markReady,
  startLocalGitHub,
} from '../demo/local-github.ts';

/**
 * The eval's loopback GitHub: the demo's (`src/demo/local-github.ts`, the task's repository over
 * git) with what an issue or pull-request conversation needs besides — the issue, reactions on
 * items and comments, review threads (a person's review comment, the bot's replies in its thread,
 * GraphQL's `reviewThreads` and `resolveReviewThread`: issue 47 item 5), and GitHub's GraphQL
 * "mark ready for review".
 */

/** A review thread on a pull request: its comments, oldest first, and whether it was resolved. */
export interface ReviewThread {
  id: string;
  pull: number;
  path: string;
  comments: { id: number; body: string; by: string }[];
  resolved: boolean;
}

export interface EvalGitHub extends LocalGitHub {
  /** Issue numbers the runner opened, with their title and body. */
  openIssue(title: string, body: string): number;
  /** Review threads, each opened by `addReviewComment`. */
  threads: ReviewThread[];
  /** A person's review comment on `path` of pull request `pull`, opening a thread; its comment id. */
  addReviewComment(pull: number, path: string, body: string, by: string): number;
}

export async function startEvalGitHub(opts: {
  repo: string;
  bare: string;
  token: string;
  botLogin: string;
}): Promise<EvalGitHub> {
  const issues: { number: number; title: string; body: string }[] = [];
  const threads: ReviewThread[] = [];
  let nextIssue = 1000;
  let nextReviewComment = 5000;
  let nextReaction = 1;
  const reaction = () => json(201, { id: nextReaction++, content: 'eyes', user: { login: opts.botLogin } });
  const R = `/repos/${opts.repo}`;
  const extra = (pulls: DemoPull[]): GitHubRoute[] => [
    ['POST', new RegExp(`^${R}/issues/(\\d+)/reactions$`), reaction],
    ['POST', new RegExp(`^${R}/issues/comments/(\\d+)/reactions$`), reaction],
    ['POST', new RegExp(`^${R}/pulls/comments/(\\d+)/reactions$`), reaction],
    [
      'GET',
      new RegExp(`^${R}/issues/(\\d+)$`),
      ([, n]) => {
        const i = issues.find((x) => x.number === Number(n));
        const p = pulls.find((x) => x.number === Number(n));
        if (!i && !p) return json(404, { message: 'Not Found' });
        return json(200, {
          number: Number(n),
          title: i?.title ?? p?.title,
          body: i?.body ?? p?.body,
          state: 'open',
          user: { login: 'eval-person', type: 'User' },
          ...(p ? { pull_request: { url: `${R}/pulls/${n}` } } : {}),
        });
      },
    ],
    ['GET', new RegExp(`^${R}/pulls/(\\d+)/reviews$`), () => json(200, [])],
    [
      'POST',
      new RegExp(`^${R}/pulls/(\\d+)/comments/(\\d+)/replies$`),
      ([, n, id], b) => {
        const thread = threads.find(
          (t) => t.pull === Number(n) && t.comments.some((c) => c.id === Number(id)),
        );
        if (!thread) return json(404, { message: 'Not Found' });
        const reply = { id: nextReviewComment++, body: String(b.body ?? ''), by: opts.botLogin };
        thread.comments.push(reply);
        return json(201, { id: reply.id, body: reply.body, in_reply_to_id: Number(id) });
      },
    ],
    [
      'POST',
      /^\/graphql$/,
      (_m, b) => {
        const vars = (b.variables ?? {}) as { pullRequestId?: string; threadId?: string; number?: number };
        const query = String(b.query ?? '');
        if (query.includes('resolveReviewThread')) {
          const t = threads.find((x) => x.id === vars.threadId);
          if (!t) return json(200, { errors: [{ message: 'Could not resolve to a node' }] });
          t.resolved = true;
          return json(200, { data: { resolveReviewThread: { thread: { id: t.id, isResolved: true } } } });
        }
        if (query.includes('reviewThreads')) {
          const nodes = threads
            .filter((t) => t.pull === vars.number)
            .map((t) => ({ id: t.id, comments: { nodes: t.comments.map((c) => ({ databaseId: c.id })) } }));
          const reviewThreads = { pageInfo: { hasNextPage: false, endCursor: null }, nodes };
          return json(200, { data: { repository: { pullRequest: { reviewThreads } } } });
        }
        if (query.includes('markPullRequestReadyForReview')) return markReady(pulls, b);
        return json(200, { errors: [{ message: 'not supported by the eval GitHub' }] });
      },
    ],
  ];
  const gh = await startLocalGitHub({ ...opts, extraRoutes: extra });
  return {
    ...gh,
    threads,
    openIssue(title, body) {
      const number = nextIssue++;
      issues.push({ number, title, body });
      return number;
    },
    addReviewComment(pull, path, body, by) {
      const id = nextReviewComment++;
      threads.push({ id: `PRRT_eval_${id}`, pull, path, comments: [{ id, body, by }], resolved: false });
      return id;
    },
  };
}
