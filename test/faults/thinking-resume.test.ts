import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeBareRepo, SECRETS } from '../integration/executor/harness.ts';
import { localMessage, send } from '../integration/routing/helpers.ts';
import { startTestApp, type TestApp, waitFor } from '../kit/app.ts';
import { type FakeGitHub, startFakeGitHub } from '../kit/fake-github.ts';
import { type FakeLlm, type RecordedRequest, startFakeLlm, text, toolCalls } from '../kit/fake-llm.ts';
import { ownedPrefixes, redisUrl } from '../kit/redis.ts';
import { cardsIn, openAll, roleOf } from '../kit/scripted-model.ts';
import { type BotProcess, startBotProcess } from '../kit/worker-process.ts';

/** Prefixes handed to the product as its own; their keys go after the file. */
const ownPrefix = ownedPrefixes();

const STEPS = 30;
const KILL_AT = 15;
const FILES = ['README.md', 'src/login.ts'];

/** How many tool-calling answers the executor has in this request's transcript: its step number. */
const stepOf = (req: RecordedRequest) =>
  req.messages.filter((m) => m.role === 'assistant' && m.tool_calls?.length).length;

describe('a thinking executor killed mid-turn resumes on another worker without a 400 (issue 12, R-H1)', () => {
  let llm: FakeLlm;
  let gh: FakeGitHub;
  let web: TestApp;
  let root: string;
  let workers: BotProcess[] = [];
  let prefix = '';
  let hung = false;
  let card = '';
  const env = () => ({
    ROLE: 'worker',
    REDIS_URL: redisUrl(),
    KEY_PREFIX: prefix,
    LLM_BASE_URL: llm.baseURL,
    LLM_API_KEY: SECRETS.LLM_API_KEY,
    LLM_PROVIDER: 'deepseek',
    JOB_LOCK_MS: '1500',
    GITHUB_API_URL: gh.url,
    GITHUB_BOT_LOGIN: gh.botLogin,
    GITHUB_TOKEN: SECRETS.GITHUB_TOKEN,
    GITHUB_WEBHOOK_SECRET: SECRETS.GITHUB_WEBHOOK_SECRET,
    WORKSPACE_DIR: join(root, 'workspaces'),
    CHAT_REPOS: 'room=acme/web',
  });

  // One test, but its own product, worker processes and key prefix all the same (issue 20).
  beforeEach(async () => {
    prefix = ownPrefix();
    workers = [];
    hung = false;
    card = '';
    root = mkdtempSync(join(tmpdir(), 'sy-think-'));
    const repo = makeBareRepo(root, { 'README.md': '# web\n', 'src/login.ts': 'export const next = 1;\n' });
    gh = await startFakeGitHub({ token: SECRETS.GITHUB_TOKEN });
    gh.setRepo('acme/web', { clone_url: repo.url });
    llm = await startFakeLlm();
    llm.respond((req) => {
      if (roleOf(req) === 'main')
        return req.messages.at(-1)?.role === 'tool' ? text('Routed.') : openAll(req);
      const step = stepOf(req);
      if (step === 0) {
        card = cardsIn(req)[0] ?? '';
        return toolCalls(['reply', { to: card, text: `Reading acme/web for ${card}.` }]);
      }
      // The first time the turn reaches this step, the answer never comes: the worker dies waiting.
      if (step === KILL_AT && !hung) {
        hung = true;
        return { type: 'message', text: 'too late', delayMs: 60_000 };
      }
      if (step < STEPS) return toolCalls(['read_file', { path: FILES[step % 2] }]);
      return text('Read everything; nothing to change.');
    });
    web = await startTestApp(
      {
        KEY_PREFIX: prefix,
        LLM_BASE_URL: llm.baseURL,
        LLM_API_KEY: SECRETS.LLM_API_KEY,
        CHAT_REPOS: 'room=acme/web',
      },
      { workers: false },
    );
  });
  afterEach(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await web.close();
    await llm.close();
    await gh.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('R-H1 / R-H7: SIGKILL at step 15 of 30; the resumed turn sends every stored reasoning back and finishes', async () => {
    const first = startBotProcess(env());
    workers.push(first);
    await send(web.ctx, localMessage('Please read through the login code of the web app'));
    await waitFor(() => hung, 'the executor to reach the step where it hangs', 40_000);
    first.kill9();

    const second = startBotProcess(env());
    workers.push(second);
    const job = await waitFor(
      async () => (await web.ctx.queues.executor.getJobs(['completed']))[0],
      'the turn to finish on the second worker',
      40_000,
    );
    expect(job.returnvalue).toMatchObject({ kind: 'ended', text: 'Read everything; nothing to change.' });

    const executor = llm.requests.filter((r) => roleOf(r) === 'executor');
    // Every request was answered: none was refused for a missing reasoning_content.
    expect(llm.requests.every((r) => r.usage || r === executor.find((x) => stepOf(x) === KILL_AT))).toBe(
      true,
    );
    const atKill = executor.filter((r) => stepOf(r) === KILL_AT);
    expect(atKill).toHaveLength(2);
    // The request the second worker sent came from the transcript in Redis, reasoning included.
    const resumed = atKill[1]?.messages.filter((m) => m.role === 'assistant' && m.tool_calls?.length) ?? [];
    expect(resumed).toHaveLength(KILL_AT);
    // The acknowledgement was answered without thinking (issue 28): it goes back with the placeholder.
    expect(resumed[0]?.reasoning_content).toBe(' ');
    expect(resumed.slice(1).every((m) => /^Thinking about/.test(m.reasoning_content ?? ''))).toBe(true);
    expect(stepOf(executor.at(-1) as RecordedRequest)).toBe(STEPS);
  }, 90_000);
});
