import { describe, expect, it } from 'vitest';
import { pauseHeldOf, reviewThreadsOf } from '../../../src/eval/behaviours.ts';
import { startEvalGitHub } from '../../../src/eval/eval-github.ts';
import type { Observed } from '../../../src/eval/observe.ts';
import { markdownTable, summarise } from '../../../src/eval/results.ts';
import { score } from '../../../src/eval/run-task.ts';
import { type EvalTask, TaskYaml } from '../../../src/eval/task.ts';
import type { TaskWorld } from '../../../src/eval/task-world.ts';
import { recordPush } from '../../../src/executor/workspace/delivery-records.ts';
import { createLogger } from '../../../src/logger.ts';
import { pauseTicket, resumeTicket } from '../../../src/tickets/pause.ts';
import { testRedis } from '../../kit/redis.ts';
import { sampleRecord } from './eval-results-fixture.ts';

const store = testRedis();

const taskWith = (followups: unknown[]): EvalTask => ({
  ...TaskYaml.parse({ request: 'Fix it.', channel: 'github-issue', check: 'true', split: 'dev', followups }),
  id: 'behave',
  dir: '/nonexistent',
  repo: { kind: 'dir', path: '/nonexistent/repo' },
  testsDir: '/nonexistent/tests',
  patch: 'diff',
});
const PAUSE = taskWith([{ text: '/pause', after: 'acknowledged' }, { text: '/resume' }]);
const REVIEW = taskWith([{ text: 'Handle 0.', review: { path: 'a.js', patch: 'review.patch' } }]);

/** A world with only what the grading reads: the product's Redis records and the loopback GitHub. */
const worldOf = (extra: Partial<TaskWorld> = {}) =>
  ({ ctx: { redis: store.redis, keys: store.keys(), log: createLogger('silent') }, ...extra }) as TaskWorld;

const pushed = (ctx: TaskWorld['ctx'], at: number) =>
  recordPush(ctx, 'T1', { sha: `${at}`.padStart(40, '0'), at, tree: 'f'.repeat(40) });

/** Issue 47 item 5: the product's own behaviours graded — a person's pause, a review thread. */
describe('eval grading of a pause and of review threads', () => {
  it('a pause held only when nothing was pushed from the /pause to the /resume', async () => {
    const held = worldOf();
    await pauseTicket(held.ctx, 'T1', { by: 'eval-person', at: 1000, via: 'message' });
    await resumeTicket(held.ctx, 'T1', { by: 'eval-person', at: 2000, via: 'message' });
    await pushed(held.ctx, 2500);
    expect(await pauseHeldOf(held, PAUSE, 'T1')).toBe(true);

    const broken = worldOf();
    await pauseTicket(broken.ctx, 'T1', { by: 'eval-person', at: 1000, via: 'message' });
    await pushed(broken.ctx, 1500);
    await resumeTicket(broken.ctx, 'T1', { by: 'eval-person', at: 2000, via: 'message' });
    expect(await pauseHeldOf(broken, PAUSE, 'T1')).toBe(false);

    // A pause that never took holds nothing; a task without a pause grades none.
    expect(await pauseHeldOf(worldOf(), PAUSE, 'T1')).toBe(false);
    expect(await pauseHeldOf(worldOf(), REVIEW, 'T1')).toBeNull();
  });

  it('a review thread counts when the bot replied in it and resolved it', async () => {
    const github = await startEvalGitHub({
      repo: 'o/r',
      bare: '/nonexistent',
      token: 't',
      botLogin: 'bot[bot]',
    });
    try {
      const w = worldOf({ github });
      const id = github.addReviewComment(3, 'a.js', 'Handle 0.', 'eval-person');
      expect(reviewThreadsOf(w, REVIEW, [id])).toEqual({ total: 1, answered: 0, resolved: 0 });
      const thread = github.threads[0];
      thread?.comments.push({ id: id + 1, body: 'On it.', by: 'bot[bot]' });
      expect(reviewThreadsOf(w, REVIEW, [id])).toEqual({ total: 1, answered: 1, resolved: 0 });
      if (thread) thread.resolved = true;
      expect(reviewThreadsOf(w, REVIEW, [id])).toEqual({ total: 1, answered: 1, resolved: 1 });
      // Never sent (no pull request to review): counted, neither answered nor resolved.
      expect(reviewThreadsOf(w, REVIEW, [undefined])).toEqual({ total: 1, answered: 0, resolved: 0 });
      expect(reviewThreadsOf(w, PAUSE, [])).toBeNull();
    } finally {
      await github.close();
    }
  });

  it('a task is resolved only with every thread answered and resolved and its pause held', () => {
    const seen = {
      ticket: 'T1',
      openedBy: 'C1',
      lastReport: 'done',
      asked: false,
      said: [],
      askedBeforePush: false,
      acks: 1,
      firstAckAt: 1,
      branch: 'sy/T1',
      pr: 'ready',
      scratchFiles: [],
      modelRequests: 1,
      promptTokens: 1,
      cacheHitTokens: 0,
      completionTokens: 1,
      costUsd: 0,
      toolErrors: {},
      limitHits: 0,
      turnsWithoutReport: 0,
      steps: [],
    } satisfies Observed;
    const passed = { exit: 0, tail: 'ok' };
    const run = (over: object) =>
      score(REVIEW, 1, 'done', { ...seen, reviewThreads: null, pauseHeld: null, ...over }, passed, 1)
        .resolved;
    expect(run({ reviewThreads: { total: 1, answered: 1, resolved: 1 } })).toBe(true);
    expect(run({ reviewThreads: { total: 1, answered: 1, resolved: 0 } })).toBe(false);
    expect(run({ reviewThreads: { total: 1, answered: 0, resolved: 1 } })).toBe(false);
    expect(run({ pauseHeld: true })).toBe(true);
    expect(run({ pauseHeld: false })).toBe(false);
  });

  it('the summary adds them up, and the table and its summary line show them', () => {
    const records = [
      sampleRecord({ reviewThreads: { total: 1, answered: 1, resolved: 0 }, resolved: false }),
      sampleRecord({ id: 'js-truncate-pause', pauseHeld: false, resolved: false }),
      sampleRecord({ id: 'js-slugify-2' }),
    ];
    const s = summarise(records);
    expect(s.reviewThreads).toEqual({ total: 1, answered: 1, resolved: 0 });
    expect(s.pauses).toEqual({ runs: 1, held: 0 });
    const table = markdownTable(records, s);
    expect(table).toContain('| threads 1/0 of 1 |');
    expect(table).toContain('| **pause broken** |');
    expect(table).toContain('review threads: 1 of 1 answered, 0 resolved; pauses held 0 of 1');
  });

  it('the median time to the acknowledgement of an even count prints as a person writes it', () => {
    const records = [
      sampleRecord({ ackSeconds: 0.1 }),
      sampleRecord({ id: 'js-slugify-2', ackSeconds: 0.2 }),
    ];
    const table = markdownTable(records, summarise(records));
    expect(table).toContain('median 0.15 s to the acknowledgement');
  });
});
