import { createPublicKey, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { restRefusal } from './contracts/github-rest-contract.ts';
import { graphqlErrors } from './contracts/graphql-contract.ts';
import { type AppInstallations, createAppInstallations, type Level } from './fake-app-installations.ts';
import { type AppManifests, createAppManifests } from './fake-app-manifests.ts';
import { basicToken, type GitAuthVerdict, gitRoute, serveGit } from './fake-git-http.ts';
import { createBranches, type FakeBranch } from './fake-github-branches.ts';
import { appReply, type IdentityOptions, jwtIssuer, jwtRefusal, userReply } from './fake-github-identity.ts';
import { diffOf, type FakeCheckRun, type FakeFile, paged } from './fake-github-reads.ts';
import { createHookDeliveries, type HookDeliveries } from './fake-hook-deliveries.ts';

/**
 * A local GitHub (REST + GraphQL) on 127.0.0.1 that speaks enough of the API for the product to
 * run against it (ARCHITECTURE "outside services in tests are real HTTP servers"): the bot's
 * identity, repositories with a settable `clone_url` (`file://` included), issues and comments,
 * reactions, pull requests and review-comment replies, permissions, and the GraphQL mutations
 * `resolveReviewThread` / `markPullRequestReadyForReview` plus a `reviewThreads` query, App
 * installations and their access tokens (scoped to repositories and permissions, enforced on REST and
 * git), and git itself over smart HTTP (`serveGit`: the real `git http-backend`). Every
 * call is recorded; failures (429 with Retry-After, 500, …) can be scripted, also after the
 * request took effect, like a crash between storing and answering.
 */

export interface FakeCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  auth: string | undefined;
  status: number;
  /** When the fake answered it (`Date.now()`); absent for git and hung calls. */
  at?: number;
}
export interface FakeUser {
  login: string;
  type: 'User' | 'Bot';
}
export interface FakeRepo {
  full_name: string;
  clone_url: string;
  default_branch: string;
  private: boolean;
}
export interface FakeComment {
  id: number;
  repo: string;
  number: number;
  body: string;
  user: FakeUser;
  created_at: string;
  updated_at: string;
  /** GitHub's `author_association` (`OWNER`, `MEMBER`, `CONTRIBUTOR`, `NONE`, …). */
  author_association?: string;
}
export interface FakeReviewComment extends FakeComment {
  in_reply_to_id?: number;
  path: string;
  /** GraphQL id of the review thread this comment belongs to (`PRRT_<root comment id>`). */
  threadId: string;
}
export interface FakeReaction {
  id: number;
  repo: string;
  target: 'issue' | 'issue_comment' | 'review_comment';
  targetId: number;
  content: string;
  user: FakeUser;
}
export interface FakeIssue {
  repo: string;
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  user: FakeUser;
  isPullRequest: boolean;
}
export interface FakePull {
  repo: string;
  number: number;
  node_id: string;
  title: string;
  body: string;
  head: { ref: string; sha: string; repo: { full_name: string } };
  base: { ref: string };
  draft: boolean;
  state: 'open' | 'closed';
  merged: boolean;
  user: FakeUser;
  /** The changed files (`GET /pulls/:n/files`, and the diff). */
  files: FakeFile[];
}
export interface FailRule {
  method?: string;
  /** A path (exact) or pattern the request path must match. */
  path: string | RegExp;
  status: number;
  /** How many matching requests fail (default 1). */
  times?: number;
  /** Seconds, sent as `Retry-After`. */
  retryAfter?: number;
  headers?: Record<string, string>;
  /** Handle the request (state changes) and only then answer with the failure. */
  afterHandling?: boolean;
  /** Never answer (a time-out at the client); with `afterHandling`, after taking effect. */
  hang?: boolean;
}

export interface FakeGitHub {
  /** Base URL for `GITHUB_API_URL`. */
  url: string;
  botLogin: string;
  appSlug: string;
  calls: FakeCall[];
  repos: Map<string, FakeRepo>;
  issues: FakeIssue[];
  comments: FakeComment[];
  reviewComments: FakeReviewComment[];
  reactions: FakeReaction[];
  pulls: FakePull[];
  checkRuns: FakeCheckRun[];
  resolvedThreads: Set<string>;
  /** The App's webhook deliveries and redelivery (issue 8). */
  hooks: HookDeliveries;
  /** App installations and the tokens minted for them (`ghs_…`, accepted on their repositories). */
  apps: AppInstallations;
  /**
   * The App manifest flow (issue 16): the registration page at `/settings/apps/new` and the code
   * exchange at `/app-manifests/{code}/conversions`. A created App's key is registered
   * (`registerAppKey`) and `GET /app` with its JWT describes it.
   */
  manifests: AppManifests;
  setRepo(fullName: string, patch?: Partial<Omit<FakeRepo, 'full_name'>>): FakeRepo;
  /**
   * Serves the bare repository `dir` as `owner/name` over git's smart HTTP at the repository's
   * `clone_url` (`<url>/git/<owner>/<name>.git`), asking for the token as GitHub does: reading a
   * private repository (the default here) and every push need it; a token that may only read is
   * refused a push (403); one for another repository gets 404.
   */
  serveGit(fullName: string, dir: string, opts?: { private?: boolean }): FakeRepo;
  setPermission(
    repo: string,
    login: string,
    permission: 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none',
  ): void;
  addIssue(repo: string, i: { title: string; body?: string; user?: FakeUser }): FakeIssue;
  addPull(
    repo: string,
    p: { title: string; head: string; base?: string; body?: string; user?: FakeUser; draft?: boolean },
  ): FakePull;
  addReviewComment(
    repo: string,
    pull: number,
    c: { body: string; user?: FakeUser; path?: string; in_reply_to_id?: number },
  ): FakeReviewComment;
  /** A comment by someone on an issue or PR conversation (seeding history, R-H6). */
  addComment(
    repo: string,
    number: number,
    c: { body: string; user?: FakeUser; association?: string },
  ): FakeComment;
  addCheckRun(repo: string, run: Partial<Omit<FakeCheckRun, 'id' | 'repo'>> & { name: string }): FakeCheckRun;
  /** A branch someone pushed, for `GET /repos/{owner}/{repo}/branches/{branch}`. */
  addBranch(repo: string, b: Parameters<ReturnType<typeof createBranches>['add']>[1]): FakeBranch;
  /**
   * From now on App JWTs must be signed by the App's key (`pem`, private or public) and issued
   * by a known App id, as GitHub checks; until a key is registered only their form and times are.
   */
  registerAppKey(appId: string, pem: string): void;
  failNext(rule: FailRule): void;
  callsTo(method: string, path: string | RegExp): FakeCall[];
  close(): Promise<void>;
}

type Reply = { status: number; body?: unknown; headers?: Record<string, string> };
type Route = (
  m: string[],
  q: URLSearchParams,
  body: Record<string, unknown>,
  auth?: string,
  headers?: Record<string, string | string[] | undefined>,
) => Reply;

const json = (status: number, body: unknown): Reply => ({ status, body });
const notFound = (): Reply => json(404, { message: 'Not Found' });
const iso = () => new Date().toISOString();
const matches = (p: string | RegExp, path: string) => (typeof p === 'string' ? p === path : p.test(path));

/** The permission a repository route needs from an installation token (GitHub's per-endpoint table, in short). */
function restNeed(method: string, path: string): [string, Level] | undefined {
  const m = /^\/repos\/[^/]+\/[^/]+(\/[^/]+)?/.exec(path);
  if (!m) return undefined;
  const level: Level = method === 'GET' ? 'read' : 'write';
  const seg = m[1];
  if (!seg || seg === '/collaborators') return ['metadata', 'read'];
  if (seg === '/issues') return ['issues', level];
  if (seg === '/pulls') return ['pull_requests', level];
  if (seg === '/check-runs' || seg === '/check-suites' || seg === '/commits') return ['checks', level];
  if (seg === '/contents' || seg === '/git' || seg === '/branches') return ['contents', level];
  return undefined;
}

/**
 * Starts the fake on a free loopback port. `token`, when given, is required on every REST call
 * (App-JWT routes under `/app` aside). People have `write` permission unless `defaultPermission`
 * or `setPermission` says otherwise.
 */
export async function startFakeGitHub(
  opts: {
    botLogin?: string;
    appSlug?: string;
    token?: string;
    defaultPermission?: string;
  } & IdentityOptions = {},
): Promise<FakeGitHub> {
  const botLogin = opts.botLogin ?? 'switchyard-bot';
  const appSlug = opts.appSlug ?? 'switchyard';
  const bot: FakeUser = { login: botLogin, type: 'User' };
  let nextId = 1000;
  const numbers = new Map<string, number>();
  const nextNumber = (repo: string) => {
    const n = (numbers.get(repo) ?? 0) + 1;
    numbers.set(repo, n);
    return n;
  };
  const permissions = new Map<string, string>();
  const rules: Array<FailRule & { left: number }> = [];
  const knownRepos = new Map<string, FakeRepo>();
  const gitDirs = new Map<string, string>();
  /** Public keys of the Apps the fake knows, by App id: their JWTs must verify (`jwtRefusal`). */
  const appKeys = new Map<string, KeyObject>();
  /** The fake's own address, known once it listens: also GitHub's web address here. */
  let baseUrl = '';
  const fake = {
    url: '',
    botLogin,
    appSlug,
    calls: [] as FakeCall[],
    repos: knownRepos,
    issues: [] as FakeIssue[],
    comments: [] as FakeComment[],
    reviewComments: [] as FakeReviewComment[],
    reactions: [] as FakeReaction[],
    pulls: [] as FakePull[],
    checkRuns: [] as FakeCheckRun[],
    resolvedThreads: new Set<string>(),
    hooks: createHookDeliveries(),
    apps: createAppInstallations(() => [...knownRepos.keys()]),
    manifests: createAppManifests(
      () => baseUrl,
      (app) => appKeys.set(String(app.id), createPublicKey(app.pem)),
    ),
  };
  const setRepo = (full: string, patch: Partial<Omit<FakeRepo, 'full_name'>> = {}): FakeRepo => {
    const repo: FakeRepo = {
      full_name: full,
      clone_url: `${fake.url}/git/${full}.git`,
      default_branch: 'main',
      private: false,
      ...fake.repos.get(full),
      ...patch,
    };
    fake.repos.set(full, repo);
    return repo;
  };
  const repoJson = (full: string) => {
    const r = fake.repos.get(full) ?? setRepo(full);
    const [owner = '', name = ''] = full.split('/');
    // What the caller (the bot) may do there, as GitHub answers an authenticated request.
    const level = permissions.get(`${full}:${botLogin.toLowerCase()}`) ?? opts.defaultPermission ?? 'write';
    const rank = ['none', 'read', 'triage', 'write', 'maintain', 'admin'].indexOf(level);
    return {
      id: full.length,
      name,
      owner: { login: owner },
      html_url: `https://github.com/${full}`,
      permissions: {
        admin: rank >= 5,
        maintain: rank >= 4,
        push: rank >= 3,
        triage: rank >= 2,
        pull: rank >= 1,
      },
      ...r,
    };
  };
  const addIssue = (
    repo: string,
    i: { title: string; body?: string; user?: FakeUser },
    isPullRequest = false,
  ) => {
    const issue: FakeIssue = {
      repo,
      number: nextNumber(repo),
      title: i.title,
      body: i.body ?? '',
      state: 'open',
      user: i.user ?? bot,
      isPullRequest,
    };
    fake.issues.push(issue);
    return issue;
  };
  const addPull: FakeGitHub['addPull'] = (repo, p) => {
    const issue = addIssue(repo, { title: p.title, body: p.body ?? '', user: p.user ?? bot }, true);
    const pull: FakePull = {
      repo,
      number: issue.number,
      node_id: `PR_${repo.replace('/', '_')}_${issue.number}`,
      title: p.title,
      body: p.body ?? '',
      head: { ref: p.head.replace(/^[^:]+:/, ''), sha: 'a'.repeat(40), repo: { full_name: repo } },
      base: { ref: p.base ?? 'main' },
      draft: p.draft ?? false,
      state: 'open',
      merged: false,
      user: p.user ?? bot,
      files: [],
    };
    fake.pulls.push(pull);
    return pull;
  };
  const addReviewComment: FakeGitHub['addReviewComment'] = (repo, pull, c) => {
    const id = nextId++;
    const parent =
      c.in_reply_to_id === undefined ? undefined : fake.reviewComments.find((x) => x.id === c.in_reply_to_id);
    const comment: FakeReviewComment = {
      id,
      repo,
      number: pull,
      body: c.body,
      user: c.user ?? bot,
      created_at: iso(),
      updated_at: iso(),
      path: c.path ?? parent?.path ?? 'README.md',
      threadId: parent?.threadId ?? `PRRT_${id}`,
      ...(parent ? { in_reply_to_id: parent.in_reply_to_id ?? parent.id } : {}),
    };
    fake.reviewComments.push(comment);
    return comment;
  };
  const commentJson = (c: FakeComment) => ({
    ...c,
    author_association: c.author_association ?? (c.user.login === botLogin ? 'NONE' : 'CONTRIBUTOR'),
    html_url: `https://github.com/${c.repo}/issues/${c.number}#issuecomment-${c.id}`,
  });
  const pullJson = ({ files: _files, ...p }: FakePull) => ({
    ...p,
    id: p.number,
    html_url: `https://github.com/${p.repo}/pull/${p.number}`,
    head: { ...p.head, label: `${p.repo.split('/')[0]}:${p.head.ref}` },
  });
  const react = (repo: string, target: FakeReaction['target'], targetId: number, content: unknown): Reply => {
    const old = fake.reactions.find(
      (r) =>
        r.repo === repo &&
        r.target === target &&
        r.targetId === targetId &&
        r.content === content &&
        r.user.login === botLogin,
    );
    if (old) return json(200, { ...old });
    const reaction: FakeReaction = {
      id: nextId++,
      repo,
      target,
      targetId,
      content: String(content),
      user: bot,
    };
    fake.reactions.push(reaction);
    return json(201, { ...reaction });
  };
  const sinceFilter = (q: URLSearchParams) => (c: FakeComment) =>
    !q.get('since') || c.updated_at >= (q.get('since') ?? '');

  const R = '/repos/([^/]+/[^/]+)';
  const branches = createBranches();
  const routes: Array<[string, RegExp, Route]> = [
    ['GET', new RegExp(`^${R}/branches/(.+)$`), ([, r = '', name = '']) => branches.get(r, name)],
    ['GET', /^\/user$/, () => userReply(botLogin, opts)],
    [
      'GET',
      /^\/app$/,
      (_m, _q, _b, auth) => {
        const made = fake.manifests.created.find((a) => String(a.id) === jwtIssuer(auth));
        if (!made) return appReply(appSlug, opts);
        return appReply(made.slug, { appPermissions: made.permissions, appEvents: made.events }, made.id);
      },
    ],
    ['POST', /^\/app-manifests\/([^/]+)\/conversions$/, ([, code = '']) => fake.manifests.convert(code)],
    ['GET', new RegExp(`^${R}$`), ([, r = '']) => json(200, repoJson(r))],
    [
      'GET',
      new RegExp(`^${R}/installation$`),
      ([, r = '']) => {
        const id = fake.apps.installationOf(r);
        return json(200, {
          id,
          app_slug: appSlug,
          permissions: fake.apps.grantsOf(id),
          repository_selection: 'all',
        });
      },
    ],
    [
      'POST',
      /^\/app\/installations\/(\d+)\/access_tokens$/,
      ([, id], _q, b) => {
        const minted = fake.apps.mint(Number(id), b);
        if (!minted.ok) return json(minted.status, { message: minted.message });
        const { token, expires_at, permissions, repositories } = minted.token;
        return json(201, {
          token,
          expires_at,
          permissions,
          repository_selection: repositories ? 'selected' : 'all',
          ...(repositories ? { repositories: repositories.map((name) => ({ name })) } : {}),
        });
      },
    ],
    [
      'GET',
      new RegExp(`^${R}/collaborators/([^/]+)/permission$`),
      ([, r, u = '']) => {
        const permission = permissions.get(`${r}:${u.toLowerCase()}`) ?? opts.defaultPermission ?? 'write';
        // GitHub's `permission` is the legacy level; `role_name` the role (maintain, triage, …).
        const legacy = permission === 'maintain' ? 'write' : permission === 'triage' ? 'read' : permission;
        return json(200, { permission: legacy, role_name: permission, user: { login: u } });
      },
    ],
    [
      'POST',
      new RegExp(`^${R}/issues$`),
      ([, r = ''], _q, b) => json(201, addIssue(r, { title: String(b.title), body: String(b.body ?? '') })),
    ],
    [
      'GET',
      new RegExp(`^${R}/issues/(\\d+)$`),
      ([, r, n]) => {
        const i = fake.issues.find((x) => x.repo === r && x.number === Number(n));
        return i ? json(200, { ...i, ...(i.isPullRequest ? { pull_request: {} } : {}) }) : notFound();
      },
    ],
    [
      'POST',
      new RegExp(`^${R}/issues/(\\d+)/comments$`),
      ([, r = '', n], _q, b) => {
        const c: FakeComment = {
          id: nextId++,
          repo: r,
          number: Number(n),
          body: String(b.body),
          user: bot,
          created_at: iso(),
          updated_at: iso(),
        };
        fake.comments.push(c);
        return json(201, commentJson(c));
      },
    ],
    [
      'GET',
      new RegExp(`^${R}/issues/(\\d+)/comments$`),
      ([, r, n], q) =>
        paged(
          fake.comments
            .filter((c) => c.repo === r && c.number === Number(n))
            .filter(sinceFilter(q))
            .map(commentJson),
          q,
          `/repos/${r}/issues/${n}/comments`,
          fake.url,
        ),
    ],
    [
      'PATCH',
      new RegExp(`^${R}/issues/comments/(\\d+)$`),
      ([, r, id], _q, b) => {
        const c = fake.comments.find((x) => x.repo === r && x.id === Number(id));
        if (!c) return notFound();
        Object.assign(c, { body: String(b.body), updated_at: iso() });
        return json(200, commentJson(c));
      },
    ],
    [
      'POST',
      new RegExp(`^${R}/issues/(\\d+)/reactions$`),
      ([, r = '', n], _q, b) => react(r, 'issue', Number(n), b.content),
    ],
    [
      'POST',
      new RegExp(`^${R}/issues/comments/(\\d+)/reactions$`),
      ([, r = '', id], _q, b) => react(r, 'issue_comment', Number(id), b.content),
    ],
    [
      'POST',
      new RegExp(`^${R}/pulls/comments/(\\d+)/reactions$`),
      ([, r = '', id], _q, b) => react(r, 'review_comment', Number(id), b.content),
    ],
    [
      'POST',
      new RegExp(`^${R}/pulls$`),
      ([, r = ''], _q, b) => {
        const head = String(b.head);
        if (
          fake.pulls.some(
            (p) => p.repo === r && p.state === 'open' && p.head.ref === head.replace(/^[^:]+:/, ''),
          )
        ) {
          return json(422, {
            message: 'Validation Failed',
            errors: [{ message: `A pull request already exists for ${head}.` }],
          });
        }
        const pull = addPull(r, {
          title: String(b.title),
          head,
          base: String(b.base ?? 'main'),
          body: String(b.body ?? ''),
          draft: b.draft === true,
        });
        return json(201, pullJson(pull));
      },
    ],
    [
      'GET',
      new RegExp(`^${R}/pulls$`),
      ([, r], q) => {
        const state = q.get('state') ?? 'open';
        const head = q.get('head')?.replace(/^[^:]+:/, '');
        const found = fake.pulls.filter(
          (p) => p.repo === r && (state === 'all' || p.state === state) && (!head || p.head.ref === head),
        );
        return json(200, found.map(pullJson));
      },
    ],
    [
      'GET',
      new RegExp(`^${R}/pulls/(\\d+)$`),
      ([, r, n], _q, _b, _a, h = {}) => {
        const p = fake.pulls.find((x) => x.repo === r && x.number === Number(n));
        if (!p) return notFound();
        // The diff media type answers the unified diff as text (GitHub REST "media types").
        if (/application\/vnd\.github(\.v3)?\.diff/.test(String(h.accept ?? '')))
          return {
            status: 200,
            body: diffOf(p.files),
            headers: { 'content-type': 'text/plain; charset=utf-8' },
          };
        return json(200, pullJson(p));
      },
    ],
    [
      'GET',
      new RegExp(`^${R}/pulls/(\\d+)/files$`),
      ([, r, n], q) => {
        const p = fake.pulls.find((x) => x.repo === r && x.number === Number(n));
        if (!p) return notFound();
        const files = p.files.map((f) => ({ ...f, changes: f.additions + f.deletions, sha: 'b'.repeat(40) }));
        return paged(files, q, `/repos/${r}/pulls/${n}/files`, fake.url);
      },
    ],
    [
      'GET',
      new RegExp(`^${R}/commits/([^/]+)/check-runs$`),
      ([, r, ref], q) => {
        const runs = fake.checkRuns.filter((c) => c.repo === r && c.head_sha === ref);
        const page = paged(runs, q, `/repos/${r}/commits/${ref}/check-runs`, fake.url);
        return { ...page, body: { total_count: runs.length, check_runs: page.body } };
      },
    ],
    [
      'PATCH',
      new RegExp(`^${R}/pulls/(\\d+)$`),
      ([, r, n], _q, b) => {
        const p = fake.pulls.find((x) => x.repo === r && x.number === Number(n));
        if (!p) return notFound();
        if (typeof b.title === 'string') p.title = b.title;
        if (typeof b.body === 'string') p.body = b.body;
        if (b.state === 'open' || b.state === 'closed') p.state = b.state;
        return json(200, pullJson(p));
      },
    ],
    [
      'GET',
      new RegExp(`^${R}/pulls/(\\d+)/comments$`),
      ([, r, n], q) =>
        json(
          200,
          fake.reviewComments.filter((c) => c.repo === r && c.number === Number(n)).filter(sinceFilter(q)),
        ),
    ],
    [
      'POST',
      new RegExp(`^${R}/pulls/(\\d+)/comments/(\\d+)/replies$`),
      ([, r = '', n, id], _q, b) => {
        const parent = fake.reviewComments.find((x) => x.repo === r && x.id === Number(id));
        if (!parent || parent.number !== Number(n)) return notFound();
        return json(201, addReviewComment(r, Number(n), { body: String(b.body), in_reply_to_id: parent.id }));
      },
    ],
    ['GET', /^\/app\/hook\/deliveries$/, () => json(200, fake.hooks.list())],
    [
      'POST',
      /^\/app\/hook\/deliveries\/(\d+)\/attempts$/,
      ([, id]) => (fake.hooks.redeliver(Number(id)) ? json(202, {}) : notFound()),
    ],
    ['POST', /^\/graphql$/, (_m, _q, b) => graphql(b)],
  ];

  /** Mutations and the one query matched by field name, as GitHub's schema names them. */
  function graphql(b: Record<string, unknown>): Reply {
    const query = String(b.query ?? '');
    const vars = (b.variables ?? {}) as Record<string, unknown>;
    // An argument by its schema name, whether written literally or passed as any `$variable`.
    const arg = (name: string): string | undefined => {
      const m = new RegExp(`\\b${name}:\\s*(?:"([^"]+)"|(\\d+)|\\$(\\w+))`).exec(query);
      const v = m?.[1] ?? m?.[2] ?? (m?.[3] ? vars[m[3]] : vars[name]);
      return v === undefined || v === null ? undefined : String(v);
    };
    // Issue 46: a document off GitHub's schema, or variables off the document, is GitHub's 200 with
    // errors; one past a connection's limits (typed errors) has `data: null` besides.
    const off = graphqlErrors(query, vars);
    if (off.length) return json(200, off.some((e) => e.type) ? { data: null, errors: off } : { errors: off });
    const missing = (id: unknown) =>
      json(200, {
        data: null,
        errors: [{ type: 'NOT_FOUND', message: `Could not resolve to a node with the global id of '${id}'` }],
      });
    if (/resolveReviewThread/.test(query)) {
      const id = arg('threadId');
      if (!fake.reviewComments.some((c) => c.threadId === id)) return missing(id);
      fake.resolvedThreads.add(String(id));
      return json(200, { data: { resolveReviewThread: { thread: { id, isResolved: true } } } });
    }
    if (/markPullRequestReadyForReview/.test(query)) {
      const id = arg('pullRequestId');
      const pull = fake.pulls.find((p) => p.node_id === id);
      if (!pull) return missing(id);
      pull.draft = false;
      return json(200, { data: { markPullRequestReadyForReview: { pullRequest: { id, isDraft: false } } } });
    }
    if (/reviewThreads/.test(query)) {
      const repo = `${arg('owner')}/${arg('name') ?? arg('repo')}`;
      // `first` is within GitHub's limits here (graphqlErrors refused the query otherwise).
      const first = Number(/reviewThreads\(first:\s*(\d+)/.exec(query)?.[1] ?? arg('first') ?? 0);
      const mine = fake.reviewComments.filter((c) => c.repo === repo && c.number === Number(arg('number')));
      const all = [...new Set(mine.map((c) => c.threadId))].map((id) => {
        const comments = mine.filter((c) => c.threadId === id);
        return {
          id,
          isResolved: fake.resolvedThreads.has(id),
          path: comments[0]?.path,
          line: null,
          comments: {
            nodes: comments.map((c) => ({
              databaseId: c.id,
              body: c.body,
              createdAt: c.created_at,
              authorAssociation: c.author_association ?? 'CONTRIBUTOR',
              author: { login: c.user.login, __typename: c.user.type },
            })),
          },
        };
      });
      const after = arg('after');
      const from = after
        ? Number(
            Buffer.from(after, 'base64')
              .toString('utf8')
              .replace(/^cursor:/, ''),
          )
        : 0;
      const nodes = all.slice(from, from + first);
      const hasNextPage = from + first < all.length;
      const endCursor = nodes.length ? Buffer.from(`cursor:${from + nodes.length}`).toString('base64') : null;
      return json(200, {
        data: {
          repository: { pullRequest: { reviewThreads: { pageInfo: { hasNextPage, endCursor }, nodes } } },
        },
      });
    }
    return json(200, { data: null, errors: [{ message: 'fake GitHub: unsupported query' }] });
  }

  function failure(method: string, path: string): (FailRule & { left: number }) | undefined {
    const rule = rules.find((r) => r.left > 0 && (!r.method || r.method === method) && matches(r.path, path));
    if (rule) rule.left--;
    return rule;
  }

  /** GitHub's answer to a git request's credentials (see `serveGit` in the interface). */
  function gitVerdict(repo: string, access: Level, auth: string | undefined): GitAuthVerdict {
    const token = basicToken(auth);
    if (!token) return access === 'read' && !fake.repos.get(repo)?.private ? 'ok' : 'missing';
    if (opts.token && token === opts.token) return 'ok';
    const v = fake.apps.verdict(token, repo, ['contents', access]);
    return v === 'bad' ? 'missing' : v;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const gu = new URL(req.url ?? '/', 'http://fake');
    const route = gitRoute(gu.pathname, gu.searchParams);
    const dir = route && gitDirs.get(route.repo);
    if (route && dir) {
      const auth = req.headers.authorization;
      const status = await serveGit(
        req,
        res,
        route,
        dir,
        gitVerdict(route.repo, route.access, auth),
        gu.search.slice(1),
      );
      fake.calls.push({
        method: req.method ?? 'GET',
        path: gu.pathname,
        query: gu.searchParams,
        body: undefined,
        auth,
        status,
      });
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const u = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    const newApp = /^\/(?:organizations\/([^/]+)\/)?settings\/apps\/new$/.exec(u.pathname);
    if (newApp && method === 'POST') {
      // GitHub's web page, not the API: a form post answered with HTML.
      const page = fake.manifests.newAppPage(new URLSearchParams(raw), u.searchParams, newApp[1]);
      fake.calls.push({
        method,
        path: u.pathname,
        query: u.searchParams,
        body: raw,
        auth: undefined,
        status: page.status,
      });
      res.writeHead(page.status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page.html);
      return;
    }
    let body: Record<string, unknown> = {};
    try {
      body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    } catch {
      return send(res, { status: 400, body: { message: 'Problems parsing JSON' } }, method, u, raw, req);
    }
    const auth = req.headers.authorization;
    // App-JWT routes pass; an installation token (`ghs_`) must be live, reach the repository
    // (its installation, and its `repositories` when the token named some: else 404) and hold the
    // permission the route needs (else 403), as GitHub decides.
    const appRoute = /^\/app(\/|$)|^\/repos\/[^/]+\/[^/]+\/installation$/.test(u.pathname);
    const refusal = appRoute ? jwtRefusal(auth, appKeys) : undefined;
    if (refusal) return send(res, refusal, method, u, body, req);
    const verdict = appRoute
      ? 'ok'
      : /^(token|bearer) ghs_/i.test(auth ?? '')
        ? fake.apps.verdict(
            auth?.replace(/^(token|bearer) /i, ''),
            /^\/repos\/([^/]+\/[^/]+)/.exec(u.pathname)?.[1],
            restNeed(method, u.pathname),
          )
        : // The manifest code is its own credential (no Authorization).
          !opts.token ||
            u.pathname.startsWith('/app-manifests/') ||
            auth === `token ${opts.token}` ||
            auth === `bearer ${opts.token}`
          ? 'ok'
          : 'bad';
    if (verdict === 'bad') return send(res, json(401, { message: 'Bad credentials' }), method, u, body, req);
    if (verdict === 'no-repo') return send(res, notFound(), method, u, body, req);
    if (verdict === 'denied')
      return send(
        res,
        json(403, { message: 'Resource not accessible by integration' }),
        method,
        u,
        body,
        req,
      );
    // Issue 46: a call off GitHub's published REST description is answered as GitHub would — once
    // its credentials pass, as GitHub checks them first (bad ones are 401 whatever the body).
    const off = restRefusal(method, u.pathname, u.searchParams, raw ? body : undefined);
    if (off) return send(res, off, method, u, body, req);
    const rule = failure(method, u.pathname);
    let reply: Reply = notFound();
    if (!rule || rule.afterHandling) {
      for (const [m, re, route] of routes) {
        const hit = m === method ? re.exec(u.pathname) : null;
        if (hit) {
          reply = route(
            [...hit].map((s) => (s === undefined ? '' : decodeURIComponent(s))),
            u.searchParams,
            body,
            auth,
            req.headers,
          );
          break;
        }
      }
    }
    if (rule?.hang) {
      fake.calls.push({ method, path: u.pathname, query: u.searchParams, body, auth, status: 0 });
      return;
    }
    if (rule) {
      const headers = {
        ...rule.headers,
        ...(rule.retryAfter === undefined ? {} : { 'retry-after': String(rule.retryAfter) }),
      };
      const message = rule.status === 429 || rule.status === 403 ? 'API rate limit exceeded' : 'Server Error';
      reply = { status: rule.status, body: { message }, headers };
    }
    send(res, reply, method, u, body, req);
  }

  function send(
    res: ServerResponse,
    reply: Reply,
    method: string,
    u: URL,
    body: unknown,
    req: IncomingMessage,
  ) {
    fake.calls.push({
      method,
      path: u.pathname,
      query: u.searchParams,
      body,
      auth: req.headers.authorization,
      status: reply.status,
      at: Date.now(),
    });
    res.writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8', ...reply.headers });
    const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
    res.end(reply.body === undefined ? '' : text);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: String(err) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  baseUrl = fake.url;

  return Object.assign(fake, {
    setRepo,
    serveGit: (full: string, dir: string, o: { private?: boolean } = {}) => {
      gitDirs.set(full, dir);
      return setRepo(full, { clone_url: `${fake.url}/git/${full}.git`, private: o.private ?? true });
    },
    setPermission: (repo: string, login: string, permission: string) =>
      permissions.set(`${repo}:${login.toLowerCase()}`, permission),
    addIssue: (repo: string, i: { title: string; body?: string; user?: FakeUser }) => addIssue(repo, i),
    addPull,
    addReviewComment,
    addComment: (
      repo: string,
      number: number,
      c: { body: string; user?: FakeUser; association?: string },
    ) => {
      const comment: FakeComment = {
        id: nextId++,
        repo,
        number,
        body: c.body,
        user: c.user ?? bot,
        created_at: iso(),
        updated_at: iso(),
        ...(c.association ? { author_association: c.association } : {}),
      };
      fake.comments.push(comment);
      return comment;
    },
    addCheckRun: (repo: string, run: Partial<Omit<FakeCheckRun, 'id' | 'repo'>> & { name: string }) => {
      const r: FakeCheckRun = {
        id: nextId++,
        repo,
        head_sha: 'a'.repeat(40),
        status: 'completed',
        conclusion: 'failure',
        output: { title: null, summary: null, text: null },
        app: { slug: 'ci' },
        ...run,
      };
      fake.checkRuns.push(r);
      return r;
    },
    addBranch: branches.add,
    registerAppKey: (appId: string, pem: string) => appKeys.set(appId, createPublicKey(pem)),
    failNext: (rule: FailRule) => rules.push({ ...rule, left: rule.times ?? 1 }),
    callsTo: (method: string, path: string | RegExp) =>
      fake.calls.filter((c) => c.method === method && matches(path, c.path)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
