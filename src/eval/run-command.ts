import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config.ts';
import { pricesFrom } from '../stats/cost.ts';
import { PRICES_READ_ON } from '../stats/prices.ts';
import { findOrStartRedis } from '../store/local-redis-server.ts';
import { markdownTable, progressLine, summarise } from './results.ts';
import { makeRunFolder, writeResults } from './results-file.ts';
import { runAll } from './run-all.ts';
import { CheckSandboxError, evalSandboxConfig } from './run-check.ts';
import { loadTasks } from './task.ts';

/**
 * `npm run eval` without `--validate` (issue 29): the tasks driven through the product, with the
 * oracle (`--oracle`) or the model `EVAL_LLM_*` names, then scored, written and tabled. The exit
 * status is 1 when a task could not run; with the oracle also when a task is unresolved or scored
 * dishonest (the oracle must solve every valid task, honestly).
 */

export interface RunArgs {
  root: string;
  only: string[] | undefined;
  concurrency: number;
  repeat: number;
  oracle: boolean;
  timeoutMs: number;
  resultsDir: string;
}

/** The product's model settings from `EVAL_LLM_*`, or why they are missing. */
export function evalModelEnv(env: NodeJS.ProcessEnv): Record<string, string> | string {
  const map = {
    EVAL_LLM_API_KEY: 'LLM_API_KEY',
    EVAL_LLM_BASE_URL: 'LLM_BASE_URL',
    EVAL_LLM_MODEL: 'LLM_MODEL',
    EVAL_LLM_PROVIDER: 'LLM_PROVIDER',
  } as const;
  if (!env.EVAL_LLM_API_KEY)
    return 'set EVAL_LLM_API_KEY (any text for a local server that needs none) and EVAL_LLM_PROVIDER, EVAL_LLM_MODEL, EVAL_LLM_BASE_URL as needed, or run with --oracle';
  return Object.fromEntries(
    Object.entries(map).flatMap(([from, to]) => (env[from] ? [[to, env[from] as string]] : [])),
  );
}

export async function runCommand(a: RunArgs, out: (line: string) => void): Promise<number> {
  const model = a.oracle ? ('oracle' as const) : evalModelEnv(process.env);
  if (typeof model === 'string' && model !== 'oracle') {
    out(model);
    return 2;
  }
  const settings = productSettings(model);
  if (typeof settings === 'string') {
    out(settings);
    return 2;
  }
  const { tasks, errors } = loadTasks(a.root, a.only);
  for (const e of errors) out(`INVALID ${e.taskId}: ${e.reason}`);
  if (!tasks.length) return 1;
  const startedAt = new Date();
  const folder = makeRunFolder(a.resultsDir, startedAt);
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-eval-redis-'));
  const store = await findOrStartRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', dir);
  const sandbox = evalSandboxConfig();
  const t0 = performance.now();
  try {
    const records = await runAll(tasks, {
      world: {
        redisUrl: store.url,
        model,
        env: { ...(sandbox.SANDBOX === 'none' ? { SANDBOX: 'none' } : {}), ...settings.env },
      },
      sandbox,
      concurrency: a.concurrency,
      repeat: a.repeat,
      timeoutMs: a.timeoutMs,
      checkTimeoutMs: 120_000,
      onRecord: (r, done, total) => out(progressLine(r, done, total)),
    });
    const s = summarise(records);
    const seconds = Math.round((performance.now() - t0) / 1000);
    const file = writeResults(folder, {
      meta: {
        startedAt: startedAt.toISOString(),
        seconds,
        model: settings.model,
        provider: settings.provider,
        oracle: a.oracle,
        tasksDir: a.root,
        repeat: a.repeat,
        concurrency: a.concurrency,
        prompts: { published: 'defaults', candidate: null },
        pricesReadOn: PRICES_READ_ON,
        record: null,
        replay: null,
      },
      summary: s,
      arms: null,
      comparison: null,
      records,
    });
    out('');
    out(markdownTable(records, s));
    out(`results: ${file} (${seconds} s)`);
    const broken = records.some((r) => r.error) || errors.length > 0;
    const oracleFailed = a.oracle && records.some((r) => !r.resolved || !r.honest);
    return broken || oracleFailed ? 1 : 0;
  } catch (err) {
    if (!(err instanceof CheckSandboxError)) throw err;
    out(`cannot run the checks: ${err.message}`);
    return 1;
  } finally {
    await store.started?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The model and provider the product will run with, as its config resolves them, and the
 * settings every task's product gets besides: `LLM_PRICES`, so the runner prices requests with
 * the same table as the panel. A bad `LLM_PRICES` or model setting is refused before any task.
 */
function productSettings(
  model: 'oracle' | Record<string, string>,
): { model: string; provider: string; env: Record<string, string> } | string {
  const prices = process.env.LLM_PRICES;
  try {
    pricesFrom(prices);
    const c = loadConfig(
      model === 'oracle'
        ? { LLM_API_KEY: 'oracle', LLM_PROVIDER: 'compatible', LLM_MODEL: 'switchyard-oracle' }
        : model,
    );
    return { model: c.executorModel, provider: c.llmProvider, env: prices ? { LLM_PRICES: prices } : {} };
  } catch (err) {
    return `cannot run: ${err instanceof Error ? err.message : String(err)}`;
  }
}
