import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wasTakenBy } from '../../src/tickets/handback.ts';
import { startWorld, type World } from '../integration/executor/harness.ts';
import { botMessages, localMessage, send } from '../integration/routing/helpers.ts';
import { waitFor } from '../kit/app.ts';
import { text, toolCalls } from '../kit/fake-llm.ts';
import { ownedPrefixes, redisUrl } from '../kit/redis.ts';
import { cardsIn, continues, inputOf, openAll, roleOf } from '../kit/scripted-model.ts';
import { type BotProcess, startBotProcess } from '../kit/worker-process.ts';

/** Prefixes handed to the product as its own; their keys go after the file. */
const ownPrefix = ownedPrefixes();

describe('issue 15: hand-back after silent handling, across a restart of the bot process', () => {
  let w: World;
  const workers: BotProcess[] = [];
  const prefix = ownPrefix();
  /** Cards the main session was asked to route (candidates); a steering notice is not one. */
  const mainCandidates: string[] = [];
  let hung = false;
  const workerEnv = () => ({
    ...w.env,
    ROLE: 'worker',
    REDIS_URL: redisUrl(),
    KEY_PREFIX: prefix,
    LLM_PROVIDER: 'deepseek',
    // A long job lock: were the turn not handed over, nobody could resume it within the wait.
    JOB_LOCK_MS: '60000',
    SHUTDOWN_GRACE_MS: '8000',
  });

  beforeAll(async () => {
    w = await startWorld({ KEY_PREFIX: prefix }, { workers: false });
    w.llm.respond((req) => {
      if (roleOf(req) === 'main') {
        if (req.messages.at(-1)?.role === 'tool') return text('Routed.');
        mainCandidates.push(...cardsIn(req));
        return openAll(req);
      }
      const input = inputOf(req);
      const afterTool = continues(req);
      if (input.includes('also default to /home')) {
        if (!afterTool)
          return toolCalls(
            ['read_file', { path: 'src/login.ts' }],
            [
              'write_file',
              { path: 'src/login.ts', content: 'export const next = (u: string) => u || "/home";\n' },
            ],
          );
        // The step after the file changed: the first time, a request that would take a minute.
        if (!hung) {
          hung = true;
          return { type: 'message', text: 'too late', delayMs: 60_000 };
        }
        return text('Done for now.');
      }
      if (afterTool) return text('Done for now.');
      return toolCalls([
        'reply',
        { to: cardsIn(req)[0], text: 'I will fix the login redirect in src/login.ts.' },
      ]);
    });
  });
  afterAll(async () => {
    await Promise.all(workers.map((p) => p.stop()));
    await w.close();
  });

  it('R-C3: a follow-up acted on silently before a worker was stopped mid-turn is still taken by the worker that finishes the turn, never a new candidate', async () => {
    const ctx = w.app.ctx;
    const first = startBotProcess(workerEnv());
    workers.push(first);
    const opening = await send(ctx, localMessage('Please fix the login redirect', { chat: 'room' }));
    const ack = await waitFor(
      async () => (await botMessages(ctx, 'room')).find((m) => m.text.startsWith('I will fix')),
      'the acknowledgement',
      30_000,
    );
    const ticket = await waitFor(
      async () => (await ctx.redis.smembers(ctx.keys.cardOwners(opening)))[0],
      'the ticket',
    );
    const acted = await send(
      ctx,
      localMessage('also default to /home when there is no target', { chat: 'room', replyTo: ack.id }),
    );
    await waitFor(() => hung, 'the executor mid-turn after changing the file', 30_000);

    // The file was written on the first process; the second resumes the turn from its transcript.
    const second = startBotProcess(workerEnv());
    workers.push(second);
    expect(await first.stop(), first.output()).toBe(0);

    await waitFor(() => wasTakenBy(ctx, acted, ticket), 'the acted-on follow-up taken', 30_000);
    await waitFor(
      async () => (await ctx.queues.executor.getJobCounts('active', 'wait', 'delayed')).active === 0,
      'the resumed turn to settle',
      30_000,
    );
    expect(await ctx.redis.hexists(ctx.keys.cardHandbacks(acted), ticket)).toBe(0);
    // Issue 30: its steering notice may start a main turn, but it is never a candidate there.
    expect(mainCandidates).not.toContain(acted);
  }, 90_000);
});
