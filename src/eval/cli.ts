import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CheckSandboxError, evalSandboxConfig } from './run-check.ts';
import { loadTasks } from './task.ts';
import { type Validation, validateTask, validationLine } from './validate.ts';

/** The suite in this repository; `--tasks DIR` names another (a team's own tasks). */
export const DEFAULT_TASKS = resolve(import.meta.dirname, '../../eval/tasks');

const USAGE = `usage: npm run eval -- --validate [--tasks DIR] [--only id,...] [--concurrency N]
  --validate      prove every task: its check fails on repo/ and passes with solution.patch
  --tasks DIR     the task folder (default eval/tasks)
  --only ids      a comma-separated subset of task ids
  --concurrency N tasks validated at once (default 2)`;

/** `npm run eval`: for now only `--validate`; the runner that drives the product comes next. */
export async function evalMain(argv: string[], out: (line: string) => void): Promise<number> {
  let values: { validate?: boolean; tasks?: string; only?: string; concurrency?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        validate: { type: 'boolean' },
        tasks: { type: 'string' },
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
  if (!values.validate) {
    out(`only --validate exists so far; running tasks against a model is not built yet\n${USAGE}`);
    return 2;
  }
  const concurrency = Number(values.concurrency ?? 2);
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    out(`--concurrency must be a whole number of at least 1, not ${values.concurrency}`);
    return 2;
  }
  const root = resolve(values.tasks ?? DEFAULT_TASKS);
  const only = values.only
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return validateAll(root, only, concurrency, out);
}

async function validateAll(
  root: string,
  only: string[] | undefined,
  concurrency: number,
  out: (line: string) => void,
) {
  const t0 = performance.now();
  const { tasks, errors } = loadTasks(root, only);
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
  out(`${total} tasks: ${total - bad} valid, ${bad} invalid — checks ran ${where}, ${seconds} s`);
  return bad === 0 && total > 0 ? 0 : 1;
}

if (process.argv[1] === import.meta.filename) {
  process.exitCode = await evalMain(process.argv.slice(2), (line) => process.stdout.write(`${line}\n`));
}
