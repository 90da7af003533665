import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { botMessages, localMessage, send } from '../integration/routing/helpers.ts';
import { startTestApp, type TestApp, waitFor } from '../kit/app.ts';
import { type FakeLlm, type FakeReply, startFakeLlm, text, toolCalls } from '../kit/fake-llm.ts';
import { ownedPrefixes, redisUrl } from '../kit/redis.ts';
import { ackAll, cardsIn, continues, openAll, roleOf } from '../kit/scripted-model.ts';
import { type BotProcess, startBotProcess } from '../kit/worker-process.ts';

/** Prefixes handed to the product as its own; their keys go after the file. */
const ownPrefix = ownedPrefixes();

/**
 * Issue 46: a worker frozen (SIGSTOP: a long GC pause, a stopped VM) with a model request under
 * way loses its turn after JOB_LOCK_MS; another worker takes it over and finishes it. When the
 * frozen one wakes and gets its answer, nothing of it reaches the chat or the model.
 */
describe('a worker frozen mid-request (fencing)', () => {
  let llm: FakeLlm;
  let web: TestApp;
  let workers: BotProcess[] = [];
  let prefix = '';
  let card = '';
  /** The executor requests that go on with the turn, in order; the first is held until released. */
  let continuing = 0;
  let release: (reply: FakeReply) => void = () => {};
  const env = () => ({
    ROLE: 'worker',
    REDIS_URL: redisUrl(),
    KEY_PREFIX: prefix,
    LLM_BASE_URL: llm.baseURL,
    LLM_API_KEY: 'test-key',
    JOB_LOCK_MS: '1000',
  });

  beforeEach(async () => {
    prefix = ownPrefix();
    workers = [];
    continuing = 0;
    llm = await startFakeLlm();
    llm.respond((req) => {
      if (roleOf(req) === 'main') return req.messages.at(-1)?.role === 'tool' ? text('ok') : openAll(req);
      if (!continues(req)) {
        card = cardsIn(req)[0] ?? '';
        return ackAll(req);
      }
      continuing += 1;
      // The step after the acknowledgement: held (the worker asking it is frozen meanwhile).
      if (continuing === 1) return new Promise<FakeReply>((resolve) => (release = resolve));
      // The same step, asked again by the worker that took the turn over.
      if (continuing === 2) return toolCalls(['reply', { to: card, text: 'From the new owner.' }]);
      return text('Done.');
    });
    web = await startTestApp(
      { KEY_PREFIX: prefix, LLM_BASE_URL: llm.baseURL, LLM_API_KEY: 'test-key' },
      { workers: false },
    );
  });
  afterEach(async () => {
    for (const w of workers) w.child.kill('SIGCONT');
    await Promise.all(workers.map((w) => w.stop()));
    await web.close();
    await llm.close();
  });

  it('issue 46: the frozen worker wakes after another finished its turn; its reply never reaches the chat, nor a request the model', async () => {
    workers.push(startBotProcess(env()), startBotProcess(env()));
    await send(web.ctx, localMessage('Please add a CHANGELOG entry for 2.1'));
    await waitFor(() => continuing === 1, 'the executor to be mid-request', 60_000);
    const running = await waitFor(
      async () => (await web.ctx.queues.executor.getJobs(['active']))[0]?.processedBy,
      'the running turn',
    );
    const frozen = workers.find((w) => running.endsWith(`:${w.child.pid}`));
    if (!frozen) throw new Error(`no worker process runs the turn (${running})`);
    frozen.child.kill('SIGSTOP');

    // Past JOB_LOCK_MS the other worker takes the turn over and finishes it.
    // The finished turn's job: another completed one may be a deduplicated run that found its
    // turn already over and took nothing (issue 46 item 2), which says nothing here.
    const done = await waitFor(
      async () =>
        (await web.ctx.queues.executor.getJobs(['completed'])).find(
          (j) => (j.returnvalue as { kind?: string } | undefined)?.kind !== 'nothing',
        ),
      'the turn to finish on the other worker',
      60_000,
    );
    expect(done.returnvalue).toMatchObject({ kind: 'ended', text: 'Done.' });
    await waitFor(
      async () => (await botMessages(web.ctx)).some((m) => m.text === 'From the new owner.'),
      "the new owner's reply",
    );

    // The frozen worker's answer arrives as it wakes: a reply of its own.
    release(toolCalls(['reply', { to: card, text: 'From the frozen worker.' }]));
    const asked = llm.requests.length;
    frozen.child.kill('SIGCONT');
    await waitFor(
      () => frozen.output().includes('lease taken over by a newer holder'),
      'the woken worker to find its turn taken over',
    );
    // Whatever it might still send would be queued by now: the outbox works at once.
    await new Promise((r) => setTimeout(r, 1500));
    const texts = (await botMessages(web.ctx)).map((m) => m.text);
    expect(texts).toContain('From the new owner.');
    expect(texts).not.toContain('From the frozen worker.');
    expect(llm.requests.length).toBe(asked);
    const outbox = await web.ctx.queues.outbox.getJobs([
      'waiting',
      'active',
      'delayed',
      'completed',
      'failed',
    ]);
    expect(outbox.filter((j) => JSON.stringify(j.data).includes('frozen worker'))).toEqual([]);
  }, 180_000);
});
