import { DEFAULT_TASKS } from '../../../src/eval/cli.ts';
import { summarise } from '../../../src/eval/results.ts';
import { makeRunFolder, writeResults } from '../../../src/eval/results-file.ts';
import { runAll } from '../../../src/eval/run-all.ts';
import { evalSandboxConfig } from '../../../src/eval/run-check.ts';
import { loadTasks } from '../../../src/eval/task.ts';
import type { TaskRecord } from '../../../src/eval/task-record.ts';
import { PRICES_READ_ON } from '../../../src/stats/prices.ts';
import { redisUrl } from '../../kit/redis.ts';

/**
 * A run folder made by the runner's own code with the oracle (issue 29): `runAll` given the run's
 * folder, so each task run's trajectory is written beside `results.json`, as `npm run eval`
 * writes them. `startedAt` places the run among others in the same results folder; `env` is more
 * of the product's settings (`LLM_PRICES`, to price the oracle's requests).
 */
export async function oracleRunFolder(
  resultsDir: string,
  only: string[],
  opts: { tasks?: string; startedAt?: Date; env?: Record<string, string> } = {},
): Promise<{ folder: string; records: TaskRecord[] }> {
  const { tasks, errors } = loadTasks(opts.tasks ?? DEFAULT_TASKS, only);
  if (errors.length) throw new Error(errors.map((e) => e.reason).join('; '));
  const startedAt = opts.startedAt ?? new Date();
  const folder = makeRunFolder(resultsDir, startedAt);
  const sandbox = evalSandboxConfig();
  const t0 = performance.now();
  const records = await runAll(tasks, {
    world: {
      redisUrl: redisUrl(),
      model: 'oracle',
      env: { ...(sandbox.SANDBOX === 'none' ? { SANDBOX: 'none' } : {}), ...opts.env },
    },
    sandbox,
    concurrency: 2,
    repeat: 1,
    timeoutMs: 200_000,
    checkTimeoutMs: 120_000,
    folder,
    onRecord: () => undefined,
  });
  writeResults(folder, {
    meta: {
      startedAt: startedAt.toISOString(),
      seconds: Math.round((performance.now() - t0) / 1000),
      model: 'switchyard-oracle',
      provider: 'compatible',
      oracle: true,
      baseline: null,
      split: 'all',
      productCommit: null,
      settings: null,
      taskSetHash: 'test',
      tasksDir: opts.tasks ?? DEFAULT_TASKS,
      repeat: 1,
      concurrency: 2,
      prompts: { published: 'defaults', candidate: null },
      pricesReadOn: PRICES_READ_ON,
      record: null,
      replay: null,
    },
    summary: summarise(records),
    arms: null,
    comparison: null,
    records,
  });
  return { folder, records };
}
