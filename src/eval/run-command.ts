import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PRICES_READ_ON } from '../stats/prices.ts';
import { findOrStartRedis } from '../store/local-redis-server.ts';
import { abResults } from './ab-results.ts';
import { armTasks, splitArm } from './arm-tasks.ts';
import type { EvalRecord } from './eval-record.ts';
import { type ModelPlan, planModel } from './model-plan.ts';
import type { Traffic } from './model-traffic.ts';
import { type Arm, promptArms } from './prompt-arms.ts';
import { markdownTable, progressLine, summarise } from './results.ts';
import { makeRunFolder, type RunMeta, writeResults } from './results-file.ts';
import { runAll } from './run-all.ts';
import { CheckSandboxError, evalSandboxConfig } from './run-check.ts';
import { productCommit, taskSetHash } from './run-identity.ts';
import type { EvalSplit, EvalTask } from './task.ts';
import { loadTasksWithSources, unavailableLines } from './task-source.ts';
import { startRecording } from './traffic-setup.ts';

/**
 * `npm run eval` without `--validate` (issue 29): the tasks driven through the product, with the
 * oracle (`--oracle`), the model `EVAL_LLM_*` names, or a recording (`--replay DIR`), then scored,
 * written and tabled; `--record DIR` keeps the model's traffic; `--prompts` runs each task under
 * the published prompts and under a candidate, interleaved, and compares them. The exit status is
 * 1 when a task could not run (a replayed request the recording does not hold included); with the
 * oracle also when a task is unresolved or scored dishonest (the oracle must solve every valid
 * task, honestly).
 */

export interface RunArgs {
  root: string;
  only: string[] | undefined;
  concurrency: number;
  repeat: number;
  oracle: boolean;
  /** `--baseline null`: the scripted agent that acknowledges and does nothing else (issue 47). */
  baseline?: string | undefined;
  /** Which split runs (issue 47): `dev`, `test` or `all`; `results.json` names it. */
  split: EvalSplit | 'all';
  timeoutMs: number;
  resultsDir: string;
  /** `--record DIR`: every model request and answer kept there. */
  record?: string | undefined;
  /** `--replay DIR`: the model's answers taken from that recording; no model is asked. */
  replay?: string | undefined;
  /** `--prompts <version|draft file>`: the candidate prompt settings to compare with the published. */
  prompts?: string | undefined;
  /** `--sources DIR` / `EVAL_SOURCES`: the clones source tasks are made from; without one they are not run. */
  sources?: string | undefined;
}

/** What a run was set up with, once everything it needs was found. */
interface Setup {
  plan: ModelPlan;
  tasks: EvalTask[];
  traffic: Traffic | undefined;
  arms: Arm[] | undefined;
}

export async function runCommand(a: RunArgs, out: (line: string) => void): Promise<number> {
  const plan = planModel(a);
  if (typeof plan === 'string') return refuse(out, plan);
  const { tasks: loaded, errors, unavailable } = await loadTasksWithSources(a.root, a.only, a.sources);
  for (const line of unavailableLines(unavailable)) out(line);
  for (const e of errors) out(`INVALID ${e.taskId}: ${e.reason}`);
  const tasks = loaded.filter((t) => a.split === 'all' || t.split === a.split);
  if (!tasks.length) {
    if (loaded.length) out(`no task of the ${a.split} split among those chosen (--split all runs every one)`);
    else if (unavailable.length) out('no task to run: every one chosen is not available here');
    return 1;
  }
  const arms = a.prompts ? await promptArms(a.prompts, process.env) : undefined;
  if (typeof arms === 'string') return refuse(out, arms);
  const traffic = a.record ? startRecording(a.record, plan) : plan.world.traffic;
  if (typeof traffic === 'string') return refuse(out, traffic);
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-eval-redis-'));
  const store = await findOrStartRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', dir);
  try {
    const records = await runTasks(a, { plan, tasks, traffic, arms }, store.url, out);
    if (typeof records === 'string') {
      out(records);
      return 1;
    }
    const broken = records.some((r) => r.error) || errors.length > 0;
    const oracleFailed = plan.oracle && records.some((r) => !r.resolved || !r.honest);
    // The floor must hold: a task the null baseline resolves cannot tell work from none.
    const floorBroken = plan.baseline === 'null' && records.some((r) => r.resolved);
    if (floorBroken)
      out(
        `the null baseline resolved ${records
          .filter((r) => r.resolved)
          .map((r) => r.id)
          .join(', ')}: those tasks score doing nothing`,
      );
    return broken || oracleFailed || floorBroken ? 1 : 0;
  } finally {
    await store.started?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function refuse(out: (line: string) => void, why: string): number {
  out(why);
  return 2;
}

/** Every task run through the product, `results.json` written and the tables printed. */
async function runTasks(
  a: RunArgs,
  s: Setup,
  redisUrl: string,
  out: (line: string) => void,
): Promise<EvalRecord[] | string> {
  const startedAt = new Date();
  const folder = makeRunFolder(a.resultsDir, startedAt);
  const sandbox = evalSandboxConfig();
  const t0 = performance.now();
  const named = (r: EvalRecord) => (s.arms ? splitArm(r, s.arms) : r);
  let records: EvalRecord[];
  try {
    const ran = await runAll(s.arms ? armTasks(s.tasks, s.arms) : s.tasks, {
      world: {
        redisUrl,
        model: s.plan.world.model,
        env: { ...(sandbox.SANDBOX === 'none' ? { SANDBOX: 'none' } : {}), ...s.plan.env },
        ...(s.traffic ? { traffic: s.traffic } : {}),
      },
      sandbox,
      concurrency: a.concurrency,
      repeat: a.repeat,
      timeoutMs: a.timeoutMs,
      checkTimeoutMs: 120_000,
      folder,
      onRecord: (r, done, total) => out(progressLine(named(r), done, total)),
    });
    records = ran.map(named);
  } catch (err) {
    if (!(err instanceof CheckSandboxError)) throw err;
    return `cannot run the checks: ${err.message}`;
  }
  const summary = summarise(records);
  const ab = s.arms ? abResults(records, s.arms) : undefined;
  const seconds = Math.round((performance.now() - t0) / 1000);
  const meta = { ...runMeta(a, s, startedAt, seconds), productCommit: await productCommit() };
  const file = writeResults(folder, {
    meta,
    summary,
    arms: ab?.arms ?? null,
    comparison: ab?.comparison ?? null,
    records,
  });
  out('');
  out(markdownTable(records, summary));
  if (ab) out(`\n${ab.table}`);
  out(`results: ${file} (${seconds} s)`);
  return records;
}

function runMeta(a: RunArgs, s: Setup, startedAt: Date, seconds: number): Omit<RunMeta, 'productCommit'> {
  const arm = (label: Arm['label']) => s.arms?.find((x) => x.label === label)?.name;
  return {
    startedAt: startedAt.toISOString(),
    seconds,
    model: s.plan.model,
    provider: s.plan.provider,
    oracle: s.plan.oracle,
    baseline: s.plan.baseline,
    settings: s.plan.settings,
    taskSetHash: taskSetHash(s.tasks),
    split: a.split,
    tasksDir: a.root,
    repeat: a.repeat,
    concurrency: a.concurrency,
    prompts: { published: arm('published') ?? 'defaults', candidate: arm('candidate') ?? null },
    pricesReadOn: PRICES_READ_ON,
    record: s.traffic?.mode === 'record' ? s.traffic.dir : null,
    replay: s.traffic?.mode === 'replay' ? s.traffic.dir : null,
  };
}
