import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { botMessages, localMessage, send } from '../integration/routing/helpers.ts';
import { startTestApp, type TestApp, waitFor } from '../kit/app.ts';
import { type FakeLlm, startFakeLlm, text } from '../kit/fake-llm.ts';
import { ownedPrefixes, redisUrl } from '../kit/redis.ts';
import { ackAll, continues, openAll, roleOf } from '../kit/scripted-model.ts';
import { type BotProcess, startBotProcess } from '../kit/worker-process.ts';

/** Prefixes handed to the product as its own; their keys go after the file. */
const ownPrefix = ownedPrefixes();

const GRACE_MS = 8000;

describe('SIGTERM during a turn (graceful hand-over)', () => {
  let llm: FakeLlm;
  let web: TestApp;
  let workers: BotProcess[] = [];
  let prefix = '';
  // A long job lock: were the turn not handed back, nobody could resume it within the test's wait.
  const env = () => ({
    ROLE: 'worker',
    REDIS_URL: redisUrl(),
    KEY_PREFIX: prefix,
    LLM_BASE_URL: llm.baseURL,
    LLM_API_KEY: 'test-key',
    JOB_LOCK_MS: '60000',
    SHUTDOWN_GRACE_MS: String(GRACE_MS),
  });
  let hung = false;

  // One test, but its own product, worker processes and key prefix all the same (issue 20).
  beforeEach(async () => {
    prefix = ownPrefix();
    workers = [];
    hung = false;
    llm = await startFakeLlm();
    llm.respond((req) => {
      if (roleOf(req) === 'main') return req.messages.at(-1)?.role === 'tool' ? text('ok') : openAll(req);
      if (!continues(req)) return ackAll(req);
      // The executor's step after its acknowledgement: the first time, a request that would take a minute.
      if (!hung) {
        hung = true;
        return { type: 'message', text: 'too late', delayMs: 60_000 };
      }
      return text('Acknowledged and queued; nothing else to do.');
    });
    web = await startTestApp(
      { KEY_PREFIX: prefix, LLM_BASE_URL: llm.baseURL, LLM_API_KEY: 'test-key' },
      { workers: false },
    );
  });
  afterEach(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await web.close();
    await llm.close();
  });

  it('issue 8: the worker stops, hands the running turn back and exits 0 within the grace; another worker finishes it; nothing twice', async () => {
    const first = startBotProcess(env());
    workers.push(first);
    const card = await send(web.ctx, localMessage('Please add a CHANGELOG entry for 2.2'));
    await waitFor(() => hung, 'the executor to be mid-turn', 20_000);

    const second = startBotProcess(env());
    workers.push(second);
    const t0 = Date.now();
    const code = await first.stop();
    const tookMs = Date.now() - t0;
    expect(code, first.output()).toBe(0);
    // It did not wait out the minute-long model request, nor the forced exit at the grace.
    expect(tookMs).toBeLessThan(GRACE_MS);

    const job = await waitFor(
      async () => (await web.ctx.queues.executor.getJobs(['completed']))[0],
      'the turn to finish on the second worker',
      20_000,
    );
    expect(job.returnvalue).toMatchObject({
      kind: 'ended',
      text: 'Acknowledged and queued; nothing else to do.',
    });
    // The same job, resumed: no failed attempt was spent on the hand-over.
    expect(job.attemptsMade).toBeLessThanOrEqual(1);
    expect(await web.ctx.queues.executor.getJobCounts('failed')).toMatchObject({ failed: 0 });

    const acks = (await botMessages(web.ctx)).filter((m) => m.text.includes(card));
    expect(acks).toHaveLength(1);
    const executorRequests = llm.requests.filter((r) => roleOf(r) === 'executor');
    // The resumed request carries the acknowledgement's tool result once; the turn's opening
    // request was made once: nothing was asked for or done twice.
    expect(executorRequests.at(-1)?.messages.filter((m) => m.role === 'tool')).toHaveLength(1);
    expect(executorRequests.filter((r) => !continues(r))).toHaveLength(1);
    // No "blocked" report: the aborted request was not taken for a failing model.
    expect(acks.concat(await botMessages(web.ctx)).some((m) => /stopped work/.test(m.text))).toBe(false);
  }, 60_000);
});
