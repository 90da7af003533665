import { execFileSync } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DemoPull } from './demo-pull.ts';
import { basicToken, gitRoute, serveGit } from './git-http.ts';
import { pullPage, repoPage } from './local-github-pages.ts';

/**
 * The demo's GitHub (`npm run demo`): one repository on loopback, served over git's smart HTTP
 * from a bare repository, and the few REST calls the bot makes for a chat request (who am I, the
 * repository, pull requests, their comments and checks). It asks for its token as GitHub does
 * (401 `Bad credentials` without it, git's Basic challenge) and answers what it lacks with
 * GitHub's 404. A pull request has a page at its `html_url`, with its diff.
 */

export interface LocalGitHub {
  url: string;
  botLogin: string;
  pulls: DemoPull[];
  /** Opens a pull request by a person (the eval's pull-request tasks), from a pushed branch. */
  addPull(p: Omit<DemoPull, 'number' | 'state'>): DemoPull;
  close(): Promise<void>;
}

export type Reply = { status: number; body: unknown };
export const json = (status: number, body: unknown): Reply => ({ status, body });
/** A REST route: method, path pattern, and the answer from the match, the JSON body and the query. */
export type GitHubRoute = [
  string,
  RegExp,
  (m: string[], b: Record<string, unknown>, q: URLSearchParams) => Reply,
];
const NOT_FOUND = json(404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' });

/** Serves `repo` (`owner/name`) from the bare repository `bare`, for the bearer of `token`. */
export async function startLocalGitHub(opts: {
  repo: string;
  bare: string;
  token: string;
  botLogin: string;
  /** More routes (the eval's: reactions, issues, GraphQL), tried after the demo's own. */
  extraRoutes?: (pulls: DemoPull[]) => GitHubRoute[];
}): Promise<LocalGitHub> {
  const { repo, bare, token, botLogin } = opts;
  const pulls: DemoPull[] = [];
  const comments: { id: number; number: number; body: string }[] = [];
  let nextId = 1;
  let url = '';
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: bare,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    }).trim();
  const headSha = (ref: string) => {
    try {
      return git('rev-parse', '--verify', '--quiet', `refs/heads/${ref}^{commit}`);
    } catch {
      return '0'.repeat(40);
    }
  };
  const [owner = '', name = ''] = repo.split('/');
  const repoJson = () => ({
    id: 1,
    name,
    full_name: repo,
    owner: { login: owner },
    private: true,
    default_branch: 'main',
    clone_url: `${url}/git/${repo}.git`,
    html_url: `${url}/${repo}`,
    permissions: { admin: false, maintain: false, push: true, triage: true, pull: true },
  });
  const pullJson = (p: DemoPull) => ({
    id: p.number,
    node_id: `PR_demo_${p.number}`,
    number: p.number,
    title: p.title,
    body: p.body,
    state: p.state,
    draft: p.draft,
    merged: false,
    html_url: `${url}/${repo}/pull/${p.number}`,
    user: p.author ? { login: p.author, type: 'User' } : { login: botLogin, type: 'Bot' },
    head: { ref: p.head, sha: headSha(p.head), label: `${owner}:${p.head}`, repo: { full_name: repo } },
    base: { ref: p.base },
  });
  const pullOf = (n: string | undefined) => pulls.find((p) => p.number === Number(n));
  const R = `/repos/${repo}`;
  const routes: GitHubRoute[] = [
    ['GET', /^\/user$/, () => json(200, { login: botLogin, id: 1, type: 'User' })],
    ['GET', new RegExp(`^${R}$`), () => json(200, repoJson())],
    [
      'GET',
      new RegExp(`^${R}/collaborators/([^/]+)/permission$`),
      ([, u]) => json(200, { permission: 'write', role_name: 'write', user: { login: u } }),
    ],
    [
      'POST',
      new RegExp(`^${R}/pulls$`),
      (_m, b) => {
        const head = String(b.head ?? '').replace(/^[^:]+:/, '');
        if (pulls.some((p) => p.state === 'open' && p.head === head))
          return json(422, {
            message: 'Validation Failed',
            errors: [{ message: `A pull request already exists for ${owner}:${head}.` }],
          });
        if (headSha(head) === '0'.repeat(40))
          return json(422, { message: 'Validation Failed', errors: [{ field: 'head', code: 'invalid' }] });
        const p: DemoPull = {
          number: nextId++,
          title: String(b.title ?? ''),
          body: String(b.body ?? ''),
          head,
          base: String(b.base ?? 'main'),
          draft: b.draft === true,
          state: 'open',
        };
        pulls.push(p);
        return json(201, pullJson(p));
      },
    ],
    ['GET', new RegExp(`^${R}/pulls$`), (_m, _b, q) => listPulls(q)],
    ['GET', new RegExp(`^${R}/pulls/(\\d+)$`), ([, n]) => withPull(n, (p) => json(200, pullJson(p)))],
    [
      'PATCH',
      new RegExp(`^${R}/pulls/(\\d+)$`),
      ([, n], b) =>
        withPull(n, (p) => {
          if (typeof b.title === 'string') p.title = b.title;
          if (typeof b.body === 'string') p.body = b.body;
          if (b.state === 'open' || b.state === 'closed') p.state = b.state;
          return json(200, pullJson(p));
        }),
    ],
    ['GET', new RegExp(`^${R}/pulls/(\\d+)/files$`), ([, n]) => withPull(n, () => json(200, []))],
    ['GET', new RegExp(`^${R}/pulls/(\\d+)/comments$`), ([, n]) => withPull(n, () => json(200, []))],
    [
      'GET',
      new RegExp(`^${R}/commits/([^/]+)/check-runs$`),
      () => json(200, { total_count: 0, check_runs: [] }),
    ],
    [
      'GET',
      new RegExp(`^${R}/issues/(\\d+)/comments$`),
      ([, n]) => json(200, comments.filter((c) => c.number === Number(n)).map(commentJson)),
    ],
    [
      'POST',
      new RegExp(`^${R}/issues/(\\d+)/comments$`),
      ([, n], b) => {
        const c = { id: nextId++, number: Number(n), body: String(b.body ?? '') };
        comments.push(c);
        return json(201, commentJson(c));
      },
    ],
    [
      'PATCH',
      new RegExp(`^${R}/issues/comments/(\\d+)$`),
      ([, id], b) => {
        const c = comments.find((x) => x.id === Number(id));
        if (!c) return NOT_FOUND;
        c.body = String(b.body ?? '');
        return json(200, commentJson(c));
      },
    ],
    ['POST', /^\/graphql$/, (_m, b) => graphql(b)],
  ];
  // A caller's routes come first: the eval's GitHub answers more of GraphQL than the demo's.
  routes.unshift(...(opts.extraRoutes?.(pulls) ?? []));
  /**
   * The one GraphQL call the demo's tickets make: `mark_pr_ready` turns the draft ready (issue 49:
   * a demo ticket ends as a real one does). Anything else gets GraphQL's error shape.
   */
  function graphql(b: Record<string, unknown>): Reply {
    if (!String(b.query ?? '').includes('markPullRequestReadyForReview'))
      return json(200, { data: null, errors: [{ message: 'not supported by the demo GitHub' }] });
    return markReady(pulls, b);
  }
  /**
   * `GET /repos/{repo}/pulls` with the filters GitHub applies: `state` (open by default, closed,
   * all), `head` as `owner:branch` and `base`. Ignoring `head` made `open_pr` of a second request
   * adopt the first request's PR (issue 49).
   */
  function listPulls(q: URLSearchParams): Reply {
    const state = q.get('state') ?? 'open';
    if (!['open', 'closed', 'all'].includes(state))
      return json(422, { message: 'Validation Failed', errors: [{ field: 'state', code: 'invalid' }] });
    const head = q.get('head');
    const [headOwner, headRef] = head?.includes(':') ? head.split(/:(.*)/s) : [owner, head];
    const base = q.get('base');
    const hits = pulls.filter(
      (p) =>
        (state === 'all' || p.state === state) &&
        (head === null || (headOwner === owner && p.head === headRef)) &&
        (base === null || p.base === base),
    );
    return json(200, hits.map(pullJson));
  }
  function withPull(n: string | undefined, then: (p: DemoPull) => Reply): Reply {
    const p = pullOf(n);
    return p ? then(p) : NOT_FOUND;
  }
  function commentJson(c: { id: number; number: number; body: string }) {
    const at = new Date().toISOString();
    return {
      id: c.id,
      body: c.body,
      user: { login: botLogin, type: 'Bot' },
      created_at: at,
      updated_at: at,
      html_url: `${url}/${repo}/pull/${c.number}#issuecomment-${c.id}`,
    };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const u = new URL(req.url ?? '/', 'http://local');
    const method = req.method ?? 'GET';
    const route = gitRoute(u.pathname, u.searchParams);
    if (route) {
      const verdict =
        route.repo !== repo ? 'no-repo' : basicToken(req.headers.authorization) === token ? 'ok' : 'missing';
      await serveGit(req, res, route, bare, verdict, u.search.slice(1));
      return;
    }
    // The pages a person opens from a PR link (no token: the demo's repository is on loopback only).
    if (method === 'GET' && !u.pathname.startsWith('/repos/') && u.pathname !== '/user') {
      const page = u.pathname === `/${repo}` ? repoPage(repo, pulls, url) : pageOfPull(u.pathname);
      res.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page ?? 'Not Found');
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: Record<string, unknown> = {};
    try {
      const raw = Buffer.concat(chunks).toString('utf8');
      body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    } catch {
      return send(res, json(400, { message: 'Problems parsing JSON' }));
    }
    const auth = req.headers.authorization ?? '';
    if (auth.toLowerCase() !== `token ${token}` && auth.toLowerCase() !== `bearer ${token}`)
      return send(res, json(401, { message: 'Bad credentials' }));
    for (const [m, re, answer] of routes) {
      const hit = m === method ? re.exec(u.pathname) : null;
      if (hit)
        return send(
          res,
          answer(
            [...hit].map((s) => s ?? ''),
            body,
            u.searchParams,
          ),
        );
    }
    send(res, NOT_FOUND);
  }
  /** A pull request's page, or a branch's (its changes against `main`). */
  function pageOfPull(path: string): string | undefined {
    const branch = path.startsWith(`/${repo}/tree/`) ? path.slice(repo.length + 7) : undefined;
    if (branch && /^[\w./-]{1,200}$/.test(branch) && headSha(branch) !== '0'.repeat(40)) {
      const open = pulls.find((x) => x.head === branch);
      const p: DemoPull = open ?? {
        number: 0,
        title: branch,
        body: '',
        head: branch,
        base: 'main',
        draft: false,
        state: 'open',
      };
      return pullPage(repo, p, diffOf(p), url);
    }
    const m = new RegExp(`^/${repo}/pull/(\\d+)$`).exec(path);
    const p = m ? pullOf(m[1]) : undefined;
    if (!p) return undefined;
    return pullPage(repo, p, diffOf(p), url);
  }
  function diffOf(p: DemoPull): string {
    try {
      return git('diff', `refs/heads/${p.base}...refs/heads/${p.head}`);
    } catch {
      return '';
    }
  }

  const server = createServer((req, res) => {
    void handle(req, res).catch(() => send(res, json(500, { message: 'Server Error' })));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    botLogin,
    pulls,
    addPull: (p) => {
      const pull: DemoPull = { ...p, number: nextId++, state: 'open' };
      pulls.push(pull);
      return pull;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `markPullRequestReadyForReview` on the pull request the variables name (`PR_demo_<n>`). */
export function markReady(pulls: DemoPull[], b: Record<string, unknown>): Reply {
  const id = ((b.variables ?? {}) as { pullRequestId?: string }).pullRequestId;
  const p = pulls.find((x) => `PR_demo_${x.number}` === id);
  if (!p)
    return json(200, {
      data: null,
      errors: [{ type: 'NOT_FOUND', message: `Could not resolve to a node with the global id of '${id}'` }],
    });
  p.draft = false;
  return json(200, { data: { markPullRequestReadyForReview: { pullRequest: { id, isDraft: false } } } });
}

function send(res: ServerResponse, reply: Reply): void {
  if (res.headersSent) return void res.end();
  res.writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(reply.body));
}
