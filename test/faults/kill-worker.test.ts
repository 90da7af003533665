import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { botMessages, localMessage, send } from '../integration/routing/helpers.ts';
import { startTestApp, type TestApp, waitFor } from '../kit/app.ts';
import { type FakeLlm, startFakeLlm, text } from '../kit/fake-llm.ts';
import { ownedPrefixes, redisUrl } from '../kit/redis.ts';
import { ackAll, continues, openAll, roleOf } from '../kit/scripted-model.ts';
import { type BotProcess, startBotProcess } from '../kit/worker-process.ts';

/** Prefixes handed to the product as its own; their keys go after the file. */
const ownPrefix = ownedPrefixes();

describe('a worker killed mid-turn (nothing lost, nothing twice)', () => {
  let llm: FakeLlm;
  let web: TestApp;
  let workers: BotProcess[] = [];
  let prefix = '';
  const env = () => ({
    ROLE: 'worker',
    REDIS_URL: redisUrl(),
    KEY_PREFIX: prefix,
    LLM_BASE_URL: llm.baseURL,
    LLM_API_KEY: 'test-key',
    JOB_LOCK_MS: '1500',
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
      // The executor's step after its acknowledgement: the first time, hang until the worker dies.
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

  it('R-C2 / issue 8: SIGKILL during a turn; another worker resumes it and no message is sent twice', async () => {
    const first = startBotProcess(env());
    workers.push(first);
    const card = await send(web.ctx, localMessage('Please add a CHANGELOG entry for 2.1'));
    await waitFor(() => hung, 'the executor to be mid-turn', 20_000);
    first.kill9();

    const second = startBotProcess(env());
    workers.push(second);
    const job = await waitFor(
      async () => (await web.ctx.queues.executor.getJobs(['completed']))[0],
      'the turn to finish on the second worker',
      30_000,
    );
    expect(job.returnvalue).toMatchObject({
      kind: 'ended',
      text: 'Acknowledged and queued; nothing else to do.',
    });
    const acks = (await botMessages(web.ctx)).filter((m) => m.text.includes(card));
    expect(acks).toHaveLength(1);
    const executorRequests = llm.requests.filter((r) => roleOf(r) === 'executor');
    // The resumed request carries the transcript: the acknowledgement's tool result is in it, once.
    const last = executorRequests.at(-1);
    expect(last?.messages.filter((m) => m.role === 'tool')).toHaveLength(1);
    expect(executorRequests.filter((r) => !continues(r))).toHaveLength(1);
  }, 60_000);
});
