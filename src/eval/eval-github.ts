import type { DemoPull } from '../demo/demo-pull.ts';
import { type GitHubRoute, json, type LocalGitHub, startLocalGitHub } from '../demo/local-github.ts';

/**
 * The eval's loopback GitHub: the demo's (`src/demo/local-github.ts`, the task's repository over
 * git) with what an issue or pull-request conversation needs besides — the issue, reactions on
 * items and comments, replies to review comments, and GitHub's GraphQL "mark ready for review".
 */

export interface EvalGitHub extends LocalGitHub {
  /** Issue numbers the runner opened, with their title and body. */
  openIssue(title: string, body: string): number;
}

export async function startEvalGitHub(opts: {
  repo: string;
  bare: string;
  token: string;
  botLogin: string;
}): Promise<EvalGitHub> {
  const issues: { number: number; title: string; body: string }[] = [];
  let nextIssue = 1000;
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
      (_m, b) => json(201, { id: nextReaction++, body: String(b.body ?? '') }),
    ],
    [
      'POST',
      /^\/graphql$/,
      (_m, b) => {
        const vars = (b.variables ?? {}) as { pullRequestId?: string };
        const query = String(b.query ?? '');
        if (query.includes('markPullRequestReadyForReview')) {
          const p = pulls.find((x) => `PR_demo_${x.number}` === vars.pullRequestId);
          if (!p) return json(200, { errors: [{ message: 'Could not resolve to a node' }] });
          p.draft = false;
          return json(200, {
            data: {
              markPullRequestReadyForReview: { pullRequest: { id: vars.pullRequestId, isDraft: false } },
            },
          });
        }
        return json(200, { errors: [{ message: 'not supported by the eval GitHub' }] });
      },
    ],
  ];
  const gh = await startLocalGitHub({ ...opts, extraRoutes: extra });
  return {
    ...gh,
    openIssue(title, body) {
      const number = nextIssue++;
      issues.push({ number, title, body });
      return number;
    },
  };
}
