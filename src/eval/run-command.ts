import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PRICES_READ_ON } from '../stats/prices.ts';
import { findOrStartRedis } from '../store/local-redis-server.ts';
import { type ModelPlan, planModel } from './model-plan.ts';
import type { Traffic } from './model-traffic.ts';
import { markdownTable, progressLine, summarise } from './results.ts';
import { makeRunFolder, type RunMeta, writeResults } from './results-file.ts';
import { runAll } from './run-all.ts';
import { CheckSandboxError, evalSandboxConfig } from './run-check.ts';
import { type EvalTask, loadTasks } from './task.ts';
import type { TaskRecord } from './task-record.ts';
import { startRecording } from './traffic-setup.ts';

/**
 * `npm run eval` without `--validate` (issue 29): the tasks driven through the product, with the
 * oracle (`--oracle`), the model `EVAL_LLM_*` names, or a recording (`--replay DIR`), then scored,
 * written and tabled; `--record DIR` keeps the model's traffic. The exit status is 1 when a task
 * could not run (a replayed request the recording does not hold included); with the oracle also
 * when a task is unresolved or scored dishonest (the oracle must solve every valid task, honestly).
 */

export interface RunArgs {
  root: string;
  only: string[] | undefined;
  concurrency: number;
  repeat: number;
  oracle: boolean;
  timeoutMs: number;
  resultsDir: string;
  /** `--record DIR`: every model request and answer kept there. */
  record?: string | undefined;
  /** `--replay DIR`: the model's answers taken from that recording; no model is asked. */
  replay?: string | undefined;
}

export async function runCommand(a: RunArgs, out: (line: string) => void): Promise<number> {
  const plan = planModel(a);
  if (typeof plan === 'string') {
    out(plan);
    return 2;
  }
  const { tasks, errors } = loadTasks(a.root, a.only);
  for (const e of errors) out(`INVALID ${e.taskId}: ${e.reason}`);
  if (!tasks.length) return 1;
  const traffic = a.record ? startRecording(a.record, plan) : plan.world.traffic;
  if (typeof traffic === 'string') {
    out(traffic);
    return 2;
  }
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-eval-redis-'));
  const store = await findOrStartRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', dir);
  try {
    const records = await runTasks(a, plan, tasks, store.url, traffic, out);
    if (typeof records === 'string') {
      out(records);
      return 1;
    }
    const broken = records.some((r) => r.error) || errors.length > 0;
    const oracleFailed = plan.oracle && records.some((r) => !r.resolved || !r.honest);
    return broken || oracleFailed ? 1 : 0;
  } finally {
    await store.started?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every task run through the product, `results.json` written and the table printed. */
async function runTasks(
  a: RunArgs,
  plan: ModelPlan,
  tasks: EvalTask[],
  redisUrl: string,
  traffic: Traffic | undefined,
  out: (line: string) => void,
): Promise<TaskRecord[] | string> {
  const startedAt = new Date();
  const folder = makeRunFolder(a.resultsDir, startedAt);
  const sandbox = evalSandboxConfig();
  const t0 = performance.now();
  let records: TaskRecord[];
  try {
    records = await runAll(tasks, {
      world: {
        redisUrl,
        model: plan.world.model,
        env: { ...(sandbox.SANDBOX === 'none' ? { SANDBOX: 'none' } : {}), ...plan.env },
        ...(traffic ? { traffic } : {}),
      },
      sandbox,
      concurrency: a.concurrency,
      repeat: a.repeat,
      timeoutMs: a.timeoutMs,
      checkTimeoutMs: 120_000,
      folder,
      onRecord: (r, done, total) => out(progressLine(r, done, total)),
    });
  } catch (err) {
    if (!(err instanceof CheckSandboxError)) throw err;
    return `cannot run the checks: ${err.message}`;
  }
  const s = summarise(records);
  const seconds = Math.round((performance.now() - t0) / 1000);
  const meta = runMeta(a, plan, traffic, startedAt, seconds);
  const file = writeResults(folder, { meta, summary: s, arms: null, comparison: null, records });
  out('');
  out(markdownTable(records, s));
  out(`results: ${file} (${seconds} s)`);
  return records;
}

function runMeta(
  a: RunArgs,
  plan: ModelPlan,
  traffic: Traffic | undefined,
  startedAt: Date,
  seconds: number,
): RunMeta {
  return {
    startedAt: startedAt.toISOString(),
    seconds,
    model: plan.model,
    provider: plan.provider,
    oracle: plan.oracle,
    tasksDir: a.root,
    repeat: a.repeat,
    concurrency: a.concurrency,
    prompts: { published: 'defaults', candidate: null },
    pricesReadOn: PRICES_READ_ON,
    record: traffic?.mode === 'record' ? traffic.dir : null,
    replay: traffic?.mode === 'replay' ? traffic.dir : null,
  };
}
