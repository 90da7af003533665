import { createHmac, randomUUID } from 'node:crypto';

/** `sha256=<hex>`: GitHub's `X-Hub-Signature-256` over the exact body bytes. */
export function signGitHubBody(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export interface SendGitHubEventOptions {
  secret: string;
  /** `X-GitHub-Delivery`; a fresh UUID when absent. */
  deliveryId?: string;
  /** Sign, then change one byte of the body: the signature no longer matches. */
  tamper?: boolean;
  /** Send this body instead of `JSON.stringify(payload)` (signed as given): truncated JSON, … */
  rawBody?: string;
  /** Extra headers; `undefined` drops a default one (e.g. `'x-hub-signature-256': undefined`). */
  headers?: Record<string, string | undefined>;
}

/**
 * POSTs a correctly signed GitHub webhook, as GitHub would. `url` is the app's base URL or the
 * full webhook URL.
 */
export async function sendGitHubEvent(
  url: string,
  event: string,
  payload: unknown,
  opts: SendGitHubEventOptions,
): Promise<Response> {
  const target = new URL(url);
  if (target.pathname === '/' || target.pathname === '') target.pathname = '/webhooks/github';
  const body = opts.rawBody ?? JSON.stringify(payload);
  const signature = signGitHubBody(opts.secret, body);
  const sent = opts.tamper ? body.replace(/.$/s, (c) => (c === '}' ? ' ' : '}')) : body;
  const headers: Record<string, string | undefined> = {
    'content-type': 'application/json',
    'user-agent': 'GitHub-Hookshot/test',
    'x-github-event': event,
    'x-github-delivery': opts.deliveryId ?? randomUUID(),
    'x-hub-signature-256': signature,
    ...opts.headers,
  };
  const defined = Object.fromEntries(
    Object.entries(headers).filter((e): e is [string, string] => e[1] !== undefined),
  );
  return fetch(target, { method: 'POST', headers: defined, body: sent });
}

// Payload builders: the fields GitHub sends that the product reads, with realistic shapes.

export interface GitHubUserLike {
  login: string;
  type?: 'User' | 'Bot';
}

const user = (u: GitHubUserLike | string) =>
  typeof u === 'string'
    ? { login: u, id: 1, type: u.endsWith('[bot]') ? 'Bot' : 'User' }
    : { id: 1, type: 'User', ...u };
const repository = (repo: string) => ({
  id: 1,
  name: repo.split('/')[1],
  full_name: repo,
  owner: { login: repo.split('/')[0] },
  html_url: `https://github.com/${repo}`,
});
const pullRequest = (
  repo: string,
  number: number,
  o: { author?: string; head?: string; sha?: string; title?: string; body?: string },
) => ({
  id: number,
  number,
  title: o.title ?? 'Fix the login redirect',
  body: o.body ?? '',
  state: 'open',
  draft: false,
  merged: false,
  user: user(o.author ?? 'ada'),
  author_association: 'MEMBER',
  html_url: `https://github.com/${repo}/pull/${number}`,
  head: { ref: o.head ?? 'fix-login', sha: o.sha ?? 'c0ffee'.padEnd(40, '0'), repo: { full_name: repo } },
  base: { ref: 'main', sha: 'b'.repeat(40), repo: { full_name: repo } },
});

export const githubPayloads = {
  /** `issue_comment.created` by `author` (a person unless it ends in `[bot]` or `type: 'Bot'`). */
  mentionComment(
    o: {
      repo?: string;
      number?: number;
      author?: GitHubUserLike | string;
      body?: string;
      commentId?: number;
      isPullRequest?: boolean;
      issueBody?: string;
      /** The comment's `created_at`/`updated_at` (ISO time), as GitHub sends them. */
      updatedAt?: string;
    } = {},
  ) {
    const repo = o.repo ?? 'acme/widgets';
    const number = o.number ?? 7;
    const times = o.updatedAt ? { created_at: o.updatedAt, updated_at: o.updatedAt } : {};
    const author = user(o.author ?? 'ada');
    return {
      action: 'created',
      issue: {
        number,
        title: 'Login redirect loops',
        body: o.issueBody ?? 'Steps to reproduce…',
        state: 'open',
        user: user('grace'),
        author_association: 'MEMBER',
        html_url: `https://github.com/${repo}/issues/${number}`,
        ...(o.isPullRequest
          ? { pull_request: { url: `https://api.github.com/repos/${repo}/pulls/${number}` } }
          : {}),
      },
      comment: {
        id: o.commentId ?? 4242,
        body: o.body ?? '@switchyard-bot please fix this',
        user: author,
        author_association: 'MEMBER',
        html_url: `https://github.com/${repo}/issues/${number}#issuecomment-${o.commentId ?? 4242}`,
        ...times,
      },
      repository: repository(repo),
      sender: author,
    };
  },

  /** `pull_request_review_comment.created`, optionally a reply in a thread (`inReplyTo`). */
  reviewComment(
    o: {
      repo?: string;
      number?: number;
      author?: string;
      body?: string;
      commentId?: number;
      inReplyTo?: number;
    } = {},
  ) {
    const repo = o.repo ?? 'acme/widgets';
    const number = o.number ?? 12;
    const author = user(o.author ?? 'ada');
    return {
      action: 'created',
      comment: {
        id: o.commentId ?? 5151,
        body: o.body ?? '@switchyard-bot this should handle null',
        user: author,
        author_association: 'MEMBER',
        path: 'src/login.ts',
        commit_id: 'c0ffee'.padEnd(40, '0'),
        ...(o.inReplyTo === undefined ? {} : { in_reply_to_id: o.inReplyTo }),
      },
      pull_request: pullRequest(repo, number, {}),
      repository: repository(repo),
      sender: author,
    };
  },

  /** `pull_request_review.submitted`. */
  review(
    o: {
      repo?: string;
      number?: number;
      author?: string;
      body?: string;
      state?: string;
      reviewId?: number;
    } = {},
  ) {
    const repo = o.repo ?? 'acme/widgets';
    const author = user(o.author ?? 'ada');
    return {
      action: 'submitted',
      review: {
        id: o.reviewId ?? 777,
        body: o.body ?? 'Looks close.',
        state: o.state ?? 'changes_requested',
        user: author,
        author_association: 'MEMBER',
      },
      pull_request: pullRequest(repo, o.number ?? 12, {}),
      repository: repository(repo),
      sender: author,
    };
  },

  /** `pull_request.opened`. */
  prOpened(
    o: { repo?: string; number?: number; author?: string; body?: string; head?: string; sha?: string } = {},
  ) {
    const repo = o.repo ?? 'acme/widgets';
    const author = o.author ?? 'ada';
    return {
      action: 'opened',
      number: o.number ?? 12,
      pull_request: pullRequest(repo, o.number ?? 12, {
        author,
        ...(o.body ? { body: o.body } : {}),
        ...(o.head ? { head: o.head } : {}),
        ...(o.sha ? { sha: o.sha } : {}),
      }),
      repository: repository(repo),
      sender: user(author),
    };
  },

  /** `check_run.completed` with a failure on one PR. */
  checkRunFailed(
    o: {
      repo?: string;
      prs?: number[];
      name?: string;
      sha?: string;
      branch?: string;
      conclusion?: string;
      /** The PRs' head repository: `fork` for a PR from another repository (ids differ). */
      head?: 'same' | 'fork';
    } = {},
  ) {
    const repo = o.repo ?? 'acme/widgets';
    // GitHub's check PR entries carry `{ id, url, name }` of the head and base repositories.
    const repoRef = (id: number, full: string) => ({
      id,
      url: `https://api.github.com/repos/${full}`,
      name: full.split('/')[1],
    });
    const headRepo = o.head === 'fork' ? repoRef(2, 'mallory/widgets') : repoRef(1, repo);
    return {
      action: 'completed',
      check_run: {
        id: 99,
        name: o.name ?? 'ci / test',
        status: 'completed',
        conclusion: o.conclusion ?? 'failure',
        head_sha: o.sha ?? 'c0ffee'.padEnd(40, '0'),
        details_url: `https://ci.example.com/runs/99`,
        html_url: `https://github.com/${repo}/runs/99`,
        output: { title: '3 tests failed', summary: 'login.test.ts: expected 302, got 200' },
        check_suite: { id: 5, head_branch: o.branch ?? 'fix-login' },
        pull_requests: (o.prs ?? [12]).map((number) => ({
          number,
          head: { ref: o.branch ?? 'fix-login', repo: headRepo },
          base: { ref: 'main', repo: repoRef(1, repo) },
        })),
        app: { slug: 'github-actions', name: 'GitHub Actions' },
      },
      repository: repository(repo),
      sender: user({ login: 'github-actions[bot]', type: 'Bot' }),
    };
  },

  /** `issues.assigned` of `assignee` by `sender`. */
  issueAssigned(
    o: {
      repo?: string;
      number?: number;
      assignee?: string;
      sender?: GitHubUserLike | string;
      body?: string;
    } = {},
  ) {
    const repo = o.repo ?? 'acme/widgets';
    const number = o.number ?? 9;
    return {
      action: 'assigned',
      issue: {
        number,
        title: 'Add dark mode',
        body: o.body ?? 'The settings page needs a dark theme.',
        state: 'open',
        user: user('grace'),
        author_association: 'MEMBER',
        assignees: [user(o.assignee ?? 'switchyard-bot')],
      },
      assignee: user(o.assignee ?? 'switchyard-bot'),
      repository: repository(repo),
      sender: user(o.sender ?? 'grace'),
    };
  },
};
