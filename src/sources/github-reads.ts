import { authorOf } from '../channels/github/author.ts';
import { type GitHubClient, splitRepo } from '../channels/github/client.ts';
import { capBlocks, READ_CAP, renderMessage } from './source-text.ts';

/** What `read_github` can read (R-H6). */
export const GITHUB_READS = ['issue', 'comments', 'pr_files', 'pr_diff', 'review_threads', 'checks'] as const;
export type GitHubRead = (typeof GITHUB_READS)[number];

export interface GitHubReadArgs {
  what: GitHubRead;
  repo: string;
  number?: number | undefined;
  /** REST pages: 1-based; `per_page` ≤ 100 (GitHub's own limit). */
  page?: number | undefined;
  perPage?: number | undefined;
  /** `pr_diff`: character offset; `review_threads`: the cursor the last page named. */
  offset?: number | undefined;
  cursor?: string | undefined;
  /** `checks`: a commit or branch; default the PR's head. */
  ref?: string | undefined;
}

type User = { login: string; type?: string } | null | undefined;
const who = (u: User, bot: string, association?: string) =>
  authorOf({ login: u?.login ?? 'ghost', ...(u?.type ? { type: u.type } : {}) }, bot, association);

/**
 * One page of one GitHub source of a repository, rendered for a model (R-H6): through the
 * repository's own client (token or App installation), paged with GitHub's limits, capped.
 * Each answer ends with how to read on. Errors (404, 403) are the caller's to turn into words.
 */
export async function readGitHub(client: GitHubClient, bot: string, a: GitHubReadArgs): Promise<string> {
  const { owner, repo } = splitRepo(a.repo);
  const page = Math.max(1, a.page ?? 1);
  const per_page = Math.min(100, Math.max(1, a.perPage ?? 30));
  const number = a.number ?? 0;
  const next = (has: boolean) =>
    has ? `[more: call again with page=${page + 1}${a.perPage ? ` per_page=${per_page}` : ''}]` : '[end]';
  switch (a.what) {
    case 'issue': {
      const { data: i } = await client.rest.issues.get({ owner, repo, issue_number: number });
      return renderMessage({
        source: 'github',
        kind: i.pull_request ? 'pull_request' : 'issue',
        id: `${a.repo}#${i.number}`,
        author: who(i.user, bot, i.author_association),
        at: i.created_at,
        facts: { state: i.state, comments: i.comments },
        title: i.title,
        text: i.body ?? '',
      });
    }
    case 'comments': {
      const { data } = await client.rest.issues.listComments({
        owner,
        repo,
        issue_number: number,
        per_page,
        page,
      });
      const blocks = data.map((c) =>
        renderMessage({
          source: 'github',
          kind: 'issue_comment',
          id: `comment:${c.id}`,
          author: who(c.user, bot, c.author_association),
          at: c.created_at,
          text: c.body ?? '',
        }),
      );
      return capBlocks(
        `Comments on ${a.repo}#${number}, page ${page}:`,
        blocks,
        next(data.length === per_page),
      );
    }
    case 'pr_files': {
      const { data } = await client.rest.pulls.listFiles({
        owner,
        repo,
        pull_number: number,
        per_page,
        page,
      });
      const blocks = data.map(
        (f) =>
          `${f.status} ${f.filename} (+${f.additions} -${f.deletions})${f.patch ? `\n${f.patch}` : ' [no patch: binary or too large]'}`,
      );
      return capBlocks(
        `Files of PR ${a.repo}#${number}, page ${page}:`,
        blocks,
        next(data.length === per_page),
      );
    }
    case 'pr_diff':
      return readDiff(client, owner, repo, number, a.offset ?? 0);
    case 'checks':
      return readChecks(client, { owner, repo, number, page, per_page, ref: a.ref }, next);
    case 'review_threads':
      throw new Error('review_threads are read by readReviewThreads');
  }
}

async function readDiff(client: GitHubClient, owner: string, repo: string, number: number, offset: number) {
  const res = await client.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', {
    owner,
    repo,
    pull_number: number,
    mediaType: { format: 'diff' },
  });
  const diff = String(res.data as unknown);
  const end = Math.min(diff.length, offset + READ_CAP);
  const more = end < diff.length ? `[more: call again with offset=${end}]` : '[end]';
  return `Diff of PR ${owner}/${repo}#${number}, characters ${offset}–${end} of ${diff.length}:\n${diff.slice(offset, end)}\n${more}`;
}

async function readChecks(
  client: GitHubClient,
  a: { owner: string; repo: string; number: number; page: number; per_page: number; ref: string | undefined },
  next: (has: boolean) => string,
) {
  const ref =
    a.ref ??
    (await client.rest.pulls.get({ owner: a.owner, repo: a.repo, pull_number: a.number })).data.head.sha;
  const { data } = await client.rest.checks.listForRef({
    owner: a.owner,
    repo: a.repo,
    ref,
    per_page: a.per_page,
    page: a.page,
  });
  // Check output is written by automation: data, sanitized and labelled like any message.
  const blocks = data.check_runs.map((r) =>
    renderMessage({
      source: 'github',
      kind: 'check_run',
      id: `check:${r.id}`,
      author: { id: r.app?.slug ?? 'unknown-app', type: 'bot' },
      facts: { name: r.name, status: r.status, conclusion: r.conclusion ?? undefined },
      title: r.output.title ?? undefined,
      text: [r.output.summary, r.output.text].filter(Boolean).join('\n\n'),
    }),
  );
  const has = a.page * a.per_page < data.total_count;
  return capBlocks(`Check runs at ${ref}, page ${a.page} (${data.total_count} in all):`, blocks, next(has));
}
