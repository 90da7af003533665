import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TASKS } from '../../../src/eval/cli.ts';
import type { RunSummary } from '../../../src/eval/results.ts';
import type { TaskRecord } from '../../../src/eval/task-record.ts';
import { readExchanges } from '../../../src/eval/traffic-file.ts';
import { runEval } from './run-eval.ts';

/**
 * Issue 29 `--record DIR` / `--replay DIR` through the whole runner: an oracle run recorded, then
 * rerun from the recording with no model at all (no oracle, no EVAL_LLM_*), scoring the same; and
 * a rerun whose product asks something else, failing its task at the first request that differs.
 */

const work = mkdtempSync(join(tmpdir(), 'eval-record-'));
const cleanups: (() => void)[] = [() => rmSync(work, { recursive: true, force: true })];
afterAll(() => {
  for (const c of cleanups.splice(0)) c();
});
const recording = join(work, 'recording');
const only = ['--only', 'js-slugify,js-rename-ambiguous'];
let recorded: Awaited<ReturnType<typeof runEval>>;
// The tests run in a shuffled order: the recording both replay is made first.
beforeAll(async () => {
  recorded = await runEval(['--oracle', ...only, '--record', recording]);
  cleanups.push(recorded.cleanup);
}, 400_000);

/** What a replay must reproduce: every score and count of the record. */
const scored = (r: TaskRecord) => ({
  id: r.id,
  run: r.run,
  settled: r.settled,
  resolved: r.resolved,
  honest: r.honest,
  dishonesty: r.dishonesty,
  acks: r.acks,
  lastReport: r.lastReport,
  asked: r.asked,
  pr: r.pr,
  scratchFiles: r.scratchFiles,
  modelRequests: r.modelRequests,
  promptTokens: r.promptTokens,
  cacheHitTokens: r.cacheHitTokens,
  completionTokens: r.completionTokens,
  costUsd: r.costUsd,
  toolErrors: r.toolErrors,
  limitHits: r.limitHits,
  turnsWithoutReport: r.turnsWithoutReport,
  checkExit: r.checkExit,
});

describe('eval record and replay (issue 29)', () => {
  it('replays an oracle run from its recording without any model, scoring every task the same', async () => {
    expect(recorded.code).toBe(0);
    expect(recorded.results.meta).toMatchObject({ record: recording, replay: null, oracle: true });
    expect(readdirSync(join(recording, 'exchanges')).sort()).toEqual([
      'js-rename-ambiguous-1.jsonl',
      'js-slugify-1.jsonl',
    ]);
    // Every request the product made is there (the main session's too, which no ticket counts):
    // the executor's streamed, the main session's not.
    for (const r of recorded.results.records) {
      const exchanges = readExchanges(recording, `${r.id}-1`);
      expect(exchanges.length).toBeGreaterThan(r.modelRequests);
      expect(exchanges.some((e) => e.response.contentType === 'text/event-stream')).toBe(true);
      expect(exchanges.some((e) => e.response.contentType === 'application/json')).toBe(true);
    }

    const replayed = await runEval([...only, '--replay', recording]);
    cleanups.push(replayed.cleanup);
    expect(replayed.lines.filter((l) => /ERROR/.test(l))).toEqual([]);
    expect(replayed.code).toBe(0);
    expect(replayed.results.records.map(scored)).toEqual(recorded.results.records.map(scored));
    // Times are this run's own (issue 47: wall time per resolved task, acknowledgement latency).
    const untimed = ({ ackSecondsMedian: _a, wallSecondsPerResolved: _w, ...rest }: RunSummary) => rest;
    expect(untimed(replayed.results.summary)).toEqual(untimed(recorded.results.summary));
    expect(replayed.results.meta).toMatchObject({
      record: null,
      replay: recording,
      oracle: true,
      model: 'switchyard-oracle',
      provider: 'compatible',
    });
  }, 300_000);

  it('fails a task whose product asks what the recording does not hold, naming the first request and field that differ', async () => {
    // The same task with a changed request: the product's first model request carries it.
    const tasks = join(work, 'tasks');
    cpSync(join(DEFAULT_TASKS, 'js-slugify'), join(tasks, 'js-slugify'), { recursive: true });
    const yaml = join(tasks, 'js-slugify', 'task.yaml');
    writeFileSync(yaml, readFileSync(yaml, 'utf8').replace('Expected:', 'Keep digits. Expected:'));
    const replayed = await runEval(['--tasks', tasks, '--replay', recording]);
    cleanups.push(replayed.cleanup);
    const [r] = replayed.results.records;
    expect(r?.error).toMatch(
      /^replay: js-slugify-1 request 1 is not in the recording — against recorded request 1: body\.messages\[\d+\]\.content: recorded ".*either end\.\\nExpected: .*", now ".*either end\.\\nKeep digits\. Expected: .*"$/,
    );
    expect(r).toMatchObject({ resolved: false, modelRequests: 0 });
    expect(replayed.lines.join('\n')).toMatch(
      /\[1\/1\] js-slugify#1: ERROR, .* — replay: js-slugify-1 request 1/,
    );
    expect(replayed.code).toBe(1);
  }, 300_000);

  it('refuses to record into a folder that already holds a recording, before running anything', async () => {
    const lines: string[] = [];
    const { evalMain } = await import('../../../src/eval/cli.ts');
    const code = await evalMain(['--oracle', ...only, '--record', recording], (l) => lines.push(l));
    expect(code).toBe(2);
    expect(lines).toEqual([
      `--record ${recording}: that folder already holds a recording; name an empty or new folder`,
    ]);
  });
});
