import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CheckSandboxError, evalSandboxConfig } from './run-check.ts';
import { runCommand } from './run-command.ts';
import { EVAL_SPLITS, type EvalSplit } from './task.ts';
import { loadTasksWithSources, unavailableLines } from './task-source.ts';
import { type Validation, validateTask, validationLine } from './validate.ts';

/** The suite in this repository; `--tasks DIR` names another (a team's own tasks). */
export const DEFAULT_TASKS = resolve(import.meta.dirname, '../../eval/tasks');

/** Where `results.json` goes, one folder per run (gitignored). */
const DEFAULT_RESULTS = resolve(import.meta.dirname, '../../eval/results');

const USAGE = `usage: npm run eval -- [--validate | --oracle | --baseline null | --replay DIR] [--record DIR] [--prompts VERSION|FILE]
                        [--tasks DIR] [--only id,...] [--concurrency N] [--repeat k] [--timeout S]
                        [--results DIR] [--sources DIR]
  (no mode)       run every task through the product with the model EVAL_LLM_* names
  --validate      prove every task: its check fails on repo/ and passes with solution.patch
  --oracle        run every task with the scripted oracle, which applies solution.patch
  --baseline null run every task with an agent that acknowledges and does nothing else: the
                  floor; exits 1 if it resolves any task
  --record DIR    keep every model request and answer (streamed chunks too) in DIR, a new folder
  --replay DIR    rerun the tasks with the answers recorded in DIR and no model; a request the
                  recording does not hold fails its task, naming the first field that differs
  --prompts V     A/B: every task under the product's published prompts and under V — a saved
                  version (r12 or 12) or a draft file as PUT /api/prompts takes it — interleaved,
                  read from the product's Redis (REDIS_URL, KEY_PREFIX); prints both arms and the
                  candidate's difference in resolve rate and cost with 95 % intervals
  --split S       dev, test or all: which tasks run (default all; dev with --prompts, so prompts
                  are tuned on dev and test stays held out)
  --tasks DIR     the task folder (default eval/tasks)
  --only ids      a comma-separated subset of task ids
  --concurrency N tasks at once (default 2)
  --repeat k      runs per task; pass@1 is their mean with a 95 % interval (default 1)
  --timeout S     seconds a task may take, follow-ups included (default 600)
  --results DIR   where results.json goes (default eval/results)
  --sources DIR   local clones of the source tasks' repositories (default EVAL_SOURCES): one git
                  directory each, DIR/<owner>+<name>/repo, DIR/<owner>+<name> or DIR/<owner>/<name>;
                  a source task with no clone is listed as not available, never run or counted`;

/** `npm run eval`: `--validate` proves the tasks; otherwise they run through the product. */
export async function evalMain(argv: string[], out: (line: string) => void): Promise<number> {
  let values: {
    validate?: boolean;
    oracle?: boolean;
    baseline?: string;
    split?: string;
    tasks?: string;
    only?: string;
    concurrency?: string;
    repeat?: string;
    timeout?: string;
    results?: string;
    record?: string;
    replay?: string;
    prompts?: string;
    sources?: string;
    help?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        validate: { type: 'boolean' },
        oracle: { type: 'boolean' },
        baseline: { type: 'string' },
        split: { type: 'string' },
        tasks: { type: 'string' },
        repeat: { type: 'string' },
        timeout: { type: 'string' },
        results: { type: 'string' },
        record: { type: 'string' },
        replay: { type: 'string' },
        prompts: { type: 'string' },
        sources: { type: 'string' },
        only: { type: 'string' },
        concurrency: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    out(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    out(USAGE);
    return 0;
  }
  const concurrency = whole(values.concurrency, 2);
  const repeat = whole(values.repeat, 1);
  const timeout = whole(values.timeout, 600);
  for (const [name, v, given] of [
    ['concurrency', concurrency, values.concurrency],
    ['repeat', repeat, values.repeat],
    ['timeout', timeout, values.timeout],
  ] as const)
    if (v === undefined) {
      out(`--${name} must be a whole number of at least 1, not ${given}`);
      return 2;
    }
  const root = resolve(values.tasks ?? DEFAULT_TASKS);
  const only = values.only
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (
    values.validate &&
    (values.oracle || values.baseline || values.record || values.replay || values.prompts)
  ) {
    out(`--validate asks no model: drop --oracle, --baseline, --record, --replay and --prompts\n${USAGE}`);
    return 2;
  }
  const split = values.split ?? (values.prompts ? 'dev' : 'all');
  if (split !== 'all' && !(EVAL_SPLITS as readonly string[]).includes(split)) {
    out(`--split is dev, test or all, not ${split}`);
    return 2;
  }
  const sources = values.sources ?? (process.env.EVAL_SOURCES || undefined);
  if (values.validate) return validateAll(root, only, sources, concurrency as number, out);
  return runCommand(
    {
      root,
      only,
      concurrency: concurrency as number,
      repeat: repeat as number,
      oracle: Boolean(values.oracle),
      baseline: values.baseline,
      split: split as EvalSplit | 'all',
      timeoutMs: (timeout as number) * 1000,
      resultsDir: resolve(values.results ?? DEFAULT_RESULTS),
      record: values.record,
      replay: values.replay,
      prompts: values.prompts,
      sources,
    },
    out,
  );
}

/** A whole number of at least 1, `fallback` when not given, undefined when not one. */
function whole(given: string | undefined, fallback: number): number | undefined {
  const n = Number(given ?? fallback);
  return Number.isInteger(n) && n >= 1 ? n : undefined;
}

async function validateAll(
  root: string,
  only: string[] | undefined,
  sources: string | undefined,
  concurrency: number,
  out: (line: string) => void,
) {
  const t0 = performance.now();
  const { tasks, errors, unavailable } = await loadTasksWithSources(root, only, sources);
  for (const line of unavailableLines(unavailable)) out(line);
  for (const e of errors) out(`INVALID ${e.taskId}: ${e.reason}`);
  const opts = { sandbox: evalSandboxConfig(), checkTimeoutMs: 120_000 };
  const results: Validation[] = [];
  const queue = [...tasks];
  try {
    await Promise.all(
      Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
        for (let task = queue.shift(); task; task = queue.shift()) {
          const v = await validateTask(task, opts);
          results.push(v);
          out(validationLine(v));
        }
      }),
    );
  } catch (err) {
    if (!(err instanceof CheckSandboxError)) throw err;
    out(`cannot validate: ${err.message}`);
    return 1;
  }
  const bad = errors.length + results.filter((r) => !r.ok).length;
  const total = errors.length + results.length;
  const seconds = ((performance.now() - t0) / 1000).toFixed(1);
  const where = opts.sandbox.SANDBOX === 'none' ? 'unconfined (SANDBOX=none)' : 'in the sandbox';
  // A task that could not be checked here is neither valid nor invalid: it is counted apart.
  const skipped = unavailable.length
    ? ` — ${unavailable.length} skipped, not available (no clone of their repository; set EVAL_SOURCES)`
    : '';
  out(`${total} tasks: ${total - bad} valid, ${bad} invalid${skipped} — checks ran ${where}, ${seconds} s`);
  return bad === 0 && total > 0 ? 0 : 1;
}

if (process.argv[1] === import.meta.filename) {
  process.exitCode = await evalMain(process.argv.slice(2), (line) => process.stdout.write(`${line}\n`));
  // The runner's products leave BullMQ and ioredis handles behind them for a moment; don't wait.
  process.exit();
}
