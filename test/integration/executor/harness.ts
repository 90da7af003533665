import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startTestApp, type TestApp, waitFor } from '../../kit/app.ts';
import { startFakeAnthropic } from '../../kit/fake-anthropic.ts';
import { type FakeGitHub, startFakeGitHub } from '../../kit/fake-github.ts';
import {
  type FakeLlm,
  type FakeReply,
  type RecordedRequest,
  startFakeLlm,
  text,
} from '../../kit/fake-llm.ts';
import type { FakeWindow } from '../../kit/fake-llm-window.ts';
import { githubPayloads, sendGitHubEvent } from '../../kit/github-webhook.ts';
import { cardsIn, lastToolResults, openAll, roleOf } from '../../kit/scripted-model.ts';

export const SECRETS = {
  LLM_API_KEY: 'sk-llm-secret-value',
  GITHUB_TOKEN: 'ghp_token_secret_value',
  FEISHU_APP_SECRET: 'feishu-secret-value',
  FEISHU_ENCRYPT_KEY: 'feishu-encrypt-key-value',
  GITHUB_WEBHOOK_SECRET: 'webhook-secret-value',
  ADMIN_TOKEN: 'admin-token-secret-0123456789abcdefghij',
};

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '',
      HOME: cwd,
      GIT_AUTHOR_NAME: 'ada',
      GIT_AUTHOR_EMAIL: 'ada@example.com',
      GIT_COMMITTER_NAME: 'ada',
      GIT_COMMITTER_EMAIL: 'ada@example.com',
    },
  }).trim();

/**
 * The bare repositories made so far in this worker, by their files: each is made once with git
 * (init, commit, push: about nine processes, each a fork of this large worker) and copied after.
 */
const madeRepos = new Map<string, string>();
let madeRoot: string | undefined;

function madeRepo(files: Record<string, string>): string {
  const key = JSON.stringify(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1)));
  const made = madeRepos.get(key);
  if (made) return made;
  if (!madeRoot) {
    const dir = mkdtempSync(join(tmpdir(), 'sy-repos-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    madeRoot = dir;
  }
  const root = join(madeRoot, String(madeRepos.size));
  const bare = join(root, 'origin.git');
  const seed = join(root, 'seed');
  mkdirSync(seed, { recursive: true });
  git(root, 'init', '-q', '--bare', '-b', 'main', bare);
  git(seed, 'init', '-q', '-b', 'main');
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(seed, path)), { recursive: true });
    writeFileSync(join(seed, path), content);
  }
  git(seed, 'add', '-A');
  git(seed, 'commit', '-q', '-m', 'initial');
  git(seed, 'push', '-q', bare, 'main');
  madeRepos.set(key, root);
  return root;
}

/**
 * A bare repository of its own with one commit on `main` holding `files`, served to executors as a
 * `file://` clone_url, and beside it the `seed` clone that pushed it: copies of the pair this
 * worker made for the same files.
 */
export function makeBareRepo(
  root: string,
  files: Record<string, string>,
): { bare: string; url: string; git: (...a: string[]) => string } {
  const bare = join(root, 'origin.git');
  const made = madeRepo(files);
  cpSync(join(made, 'origin.git'), bare, { recursive: true });
  cpSync(join(made, 'seed'), join(root, 'seed'), { recursive: true });
  return { bare, url: `file://${bare}`, git: (...a) => git(bare, ...a) };
}

export interface World {
  app: TestApp;
  /** The app's environment, for a bot process started against the same world (crash tests). */
  env: Record<string, string>;
  llm: FakeLlm;
  gh: FakeGitHub;
  /** The model's context window (R-H2): the Chat Completions fake answers its 400 past it. */
  setContextWindow(window: FakeWindow | undefined): void;
  root: string;
  repo: ReturnType<typeof makeBareRepo>;
  close(): Promise<void>;
}

/**
 * The product with fake GitHub and model, `acme/web` backed by a local bare repository. The model
 * speaks Chat Completions, or Anthropic's Messages API with `model: 'anthropic'` (the same
 * scripts drive both fakes). `files` are added to the repository.
 */
export async function startWorld(
  env: Record<string, string> = {},
  opts: { model?: 'chat' | 'anthropic'; files?: Record<string, string>; workers?: boolean } = {},
): Promise<World> {
  const root = mkdtempSync(join(tmpdir(), 'sy-exec-'));
  // Issue 45: a bot running as root runs commands as SANDBOX_UID, whose bwrap walks to the
  // checkout under WORKSPACE_DIR: like a deployment's, the folder above it lets others through.
  chmodSync(root, 0o711);
  const repo = makeBareRepo(root, {
    'README.md': '# web\n',
    'AGENTS.md': 'Run `npm test` before you push.\n',
    'src/login.ts': 'export const next = (u: string) => u;\n',
    'web/style.css': 'body { color: black; }\n',
    ...opts.files,
  });
  const anthropic = opts.model === 'anthropic';
  const chat = anthropic ? undefined : await startFakeLlm();
  const llm = chat ?? (await startFakeAnthropic({ apiKey: SECRETS.LLM_API_KEY, minCacheTokens: 256 }));
  const gh = await startFakeGitHub({ token: SECRETS.GITHUB_TOKEN });
  gh.setRepo('acme/web', { clone_url: repo.url });
  const appEnv = {
    LLM_BASE_URL: llm.baseURL,
    ...(anthropic ? { LLM_PROVIDER: 'anthropic', LLM_MODEL: 'claude-haiku-4-5' } : {}),
    GITHUB_API_URL: gh.url,
    GITHUB_BOT_LOGIN: gh.botLogin,
    WORKSPACE_DIR: join(root, 'workspaces'),
    CHAT_REPOS: 'room=acme/web',
    // Feishu on (its secret is one of those a command must not see) but pointed at nothing.
    FEISHU_APP_ID: 'cli_a0b1c2d3e4f50617',
    FEISHU_DOMAIN: 'http://127.0.0.1:9',
    ...SECRETS,
    ...env,
  };
  const app = await startTestApp(appEnv, { workers: opts.workers ?? true });
  return {
    app,
    env: appEnv,
    llm,
    gh,
    root,
    repo,
    setContextWindow(window) {
      if (!chat) throw new Error('the Anthropic fake has no context window');
      chat.setContextWindow(window);
    },
    async close() {
      await app.close();
      await llm.close();
      await gh.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export type ExecStep = (req: RecordedRequest, card: string) => FakeReply;

/**
 * An executor following `steps`, one per model request of its turn; the tool results each step
 * produced are collected in `results[i]`. The main session opens a ticket for every candidate.
 */
export function executorFlow(llm: FakeLlm, steps: ExecStep[]) {
  const results: string[][] = [];
  let card = '';
  let i = 0;
  llm.respond((req) => {
    if (roleOf(req) === 'main') return req.messages.at(-1)?.role === 'tool' ? text('Routed.') : openAll(req);
    if (i === 0) card = cardsIn(req)[0] ?? '';
    else results.push(lastToolResults(req));
    const step = steps[i++];
    return step ? step(req, card) : text('Done for now.');
  });
  return {
    results,
    /** Resolves once the last step's results came back to the model (a long flow may wait longer). */
    done: (timeoutMs = 30_000) =>
      waitFor(() => results.length >= steps.length, 'the executor flow', timeoutMs),
  };
}

/**
 * Every executor request, in order, each answered by the step at its place (any request, tool
 * results and host notes alike: issue 28 tests count them); past the steps, `rest`. The main
 * session opens a ticket for every candidate.
 */
export function executorRequests(llm: FakeLlm, steps: ExecStep[], rest: FakeReply = text('Done for now.')) {
  const seen: RecordedRequest[] = [];
  let card = '';
  llm.respond((req) => {
    if (roleOf(req) === 'main') return req.messages.at(-1)?.role === 'tool' ? text('Routed.') : openAll(req);
    if (!seen.length) card = cardsIn(req)[0] ?? '';
    seen.push(req);
    return steps[seen.length - 1]?.(req, card) ?? rest;
  });
  return seen;
}

/** A signed `pull_request_review_comment` webhook to the world's product. */
export const sendReviewComment = (w: World, payload: unknown) =>
  sendGitHubEvent(w.app.url, 'pull_request_review_comment', payload, {
    secret: SECRETS.GITHUB_WEBHOOK_SECRET,
  });

/**
 * A person (grace) comments on a line of `acme/web#pr`: the fake GitHub holds the comment, and its
 * signed webhook reaches the product (202, or this throws).
 */
export async function personReviewComment(w: World, pr: number, body = 'Please keep the old name') {
  const c = w.gh.addReviewComment('acme/web', pr, { body, user: { login: 'grace', type: 'User' } });
  const payload = githubPayloads.reviewComment({
    repo: 'acme/web',
    number: pr,
    author: 'grace',
    commentId: c.id,
    body: c.body,
  });
  const res = await sendReviewComment(w, payload);
  if (res.status !== 202) throw new Error(`the review comment's webhook answered ${res.status}`);
}
