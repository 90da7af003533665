import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxConfig } from '../executor/sandbox/sandbox-settings.ts';
import { runProcess } from '../executor/workspace/run-process.ts';
import { layTests } from './lay-tests.ts';
import { type CheckOutcome, runCheck } from './run-check.ts';
import type { EvalTask } from './task.ts';
import { alternativePatches, reviewPatches } from './task-patches.ts';
import { writeStartTree } from './task-repo.ts';

export interface Validation {
  id: string;
  ok: boolean;
  /** Why the task is not valid, in words (when `ok` is false). */
  reason?: string;
  /** Seconds the check took on `repo/`, and on `repo/` with the patch (absent where it did not run). */
  beforeSeconds?: number;
  afterSeconds?: number;
  /** Other correct fixes (`solution-alt*.patch`) that pass too, and review parts the check needs. */
  alternatives?: number;
  reviews?: number;
}

export interface ValidateOptions {
  sandbox: SandboxConfig;
  checkTimeoutMs: number;
}

const GIT_ENV = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'eval',
  GIT_AUTHOR_EMAIL: 'eval@switchyard.invalid',
  GIT_COMMITTER_NAME: 'eval',
  GIT_COMMITTER_EMAIL: 'eval@switchyard.invalid',
};

async function git(dir: string, args: string[]) {
  return runProcess('git', args, { cwd: dir, env: GIT_ENV, timeoutMs: 30_000 });
}

/**
 * Proves a task usable, as SWE-bench validates its instances: in a fresh checkout of `repo/`
 * (committed as its first commit) with `tests/` laid over it, `check` fails, and after `git apply
 * solution.patch` and `tests/` laid over that, it passes (issue 47: the grading files are hidden
 * from the bot and laid over whatever it pushed). A task that must change nothing is the other way
 * round: `check` passes on `repo/` with `tests/` as it is.
 */
export async function validateTask(task: EvalTask, opts: ValidateOptions): Promise<Validation> {
  const root = await mkdtemp(join(tmpdir(), `switchyard-eval-${task.id}-`));
  try {
    return await validateIn(root, task, opts);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/**
 * `repo/` (or `repo.bundle`'s tree) written to `root/<name>` and committed as its first commit. Host git touches a checkout
 * only here, before any of the task's code has run in it: a check runs in the sandbox with its
 * checkout writable, and what it writes into `.git` (a filter, `core.fsmonitor`, a hook) would
 * run on the host under the next host git there (R-H3, R-H4).
 */
async function freshCheckout(
  root: string,
  name: string,
  task: EvalTask,
): Promise<string | { reason: string }> {
  const dir = join(root, name);
  try {
    await writeStartTree(task.repo, dir, join(root, 'home'));
  } catch (err) {
    return { reason: `the repository does not unpack: ${(err as Error).message}` };
  }
  for (const args of [
    ['init', '-q', '-b', 'main'],
    ['add', '-A'],
    ['commit', '-q', '-m', 'start'],
  ]) {
    const r = await git(dir, args);
    if (r.exitCode !== 0) return { reason: `git ${args[0]} failed: ${r.output.trim()}` };
  }
  return dir;
}

async function validateIn(root: string, task: EvalTask, opts: ValidateOptions): Promise<Validation> {
  const home = join(root, 'home');
  await mkdir(home);
  const start = await freshCheckout(root, 'before', task);
  if (typeof start !== 'string') return { id: task.id, ok: false, ...start };
  layTests(task.testsDir, start);
  const timed = async (dir: string): Promise<[CheckOutcome, number]> => {
    const t0 = performance.now();
    const r = await runCheck(opts.sandbox, dir, home, task.check, opts.checkTimeoutMs);
    return [r, Math.round((performance.now() - t0) / 100) / 10];
  };
  const [before, beforeSeconds] = await timed(start);
  const seconds = opts.checkTimeoutMs / 1000;
  if (before.timedOut)
    return { id: task.id, ok: false, reason: `check ran past ${seconds} s on repo/`, beforeSeconds };
  if (task.expect === 'no-change') {
    if (before.exitCode === 0) return { id: task.id, ok: true, beforeSeconds };
    return {
      id: task.id,
      ok: false,
      reason: `expect is no-change but check fails on repo/: ${tail(before)}`,
      beforeSeconds,
    };
  }
  if (before.exitCode === 0) {
    return {
      id: task.id,
      ok: false,
      reason: 'check passes on repo/ and tests/ without the patch (it proves nothing)',
      beforeSeconds,
    };
  }
  // The patch goes on a checkout of its own, which no check has run in.
  const patched = await freshCheckout(root, 'after', task);
  if (typeof patched !== 'string') return { id: task.id, ok: false, ...patched, beforeSeconds };
  await writeFile(join(root, 'solution.patch'), task.patch);
  const applied = await git(patched, ['apply', '--whitespace=nowarn', join(root, 'solution.patch')]);
  if (applied.exitCode !== 0) {
    return {
      id: task.id,
      ok: false,
      reason: `solution.patch does not apply: ${applied.output.trim()}`,
      beforeSeconds,
    };
  }
  layTests(task.testsDir, patched);
  const [after, afterSeconds] = await timed(patched);
  if (after.timedOut) {
    return {
      id: task.id,
      ok: false,
      reason: `check ran past ${seconds} s with the patch`,
      beforeSeconds,
      afterSeconds,
    };
  }
  if (after.exitCode !== 0) {
    return {
      id: task.id,
      ok: false,
      reason: `check fails with the patch: ${tail(after)}`,
      beforeSeconds,
      afterSeconds,
    };
  }
  const other = await otherStates(root, task, timed);
  if (other) return { id: task.id, ok: false, reason: other, beforeSeconds, afterSeconds };
  return { id: task.id, ok: true, beforeSeconds, afterSeconds, ...otherCounts(task) };
}

const otherCounts = (task: EvalTask) => ({
  alternatives: alternativePatches(task).length,
  reviews: reviewPatches(task).length,
});

/**
 * Issue 47: each other correct fix (`solution-alt*.patch`, item 6) passes as solution.patch does,
 * each on a fresh checkout; and with solution.patch less the review follow-ups' parts (item 5:
 * what the bot pushes before the review), the check fails: the hidden tests grade the review.
 */
async function otherStates(
  root: string,
  task: EvalTask,
  timed: (dir: string) => Promise<[CheckOutcome, number]>,
): Promise<string | undefined> {
  for (const [i, alt] of alternativePatches(task).entries()) {
    const dir = await patchedCheckout(root, `alt-${i}`, task, [{ ...alt, reverse: false }]);
    if (typeof dir !== 'string') return dir.reason;
    const [r] = await timed(dir);
    if (r.exitCode !== 0) return `check fails with ${alt.name}, another correct fix: ${tail(r)}`;
  }
  const reviews = reviewPatches(task);
  if (!reviews.length) return undefined;
  const undo = [...reviews].reverse().map((p) => ({ ...p, reverse: true }));
  const main = { name: 'solution.patch', text: task.patch, reverse: false };
  const dir = await patchedCheckout(root, 'before-review', task, [main, ...undo]);
  if (typeof dir !== 'string') return dir.reason;
  const [r] = await timed(dir);
  if (r.exitCode === 0)
    return `check passes without ${undo.map((p) => p.name).join(', ')}: the hidden tests do not grade the review`;
  return undefined;
}

/** A fresh checkout with each patch applied (or reversed) in order, and `tests/` laid over it. */
async function patchedCheckout(
  root: string,
  name: string,
  task: EvalTask,
  patches: { name: string; text: string; reverse: boolean }[],
): Promise<string | { reason: string }> {
  const dir = await freshCheckout(root, name, task);
  if (typeof dir !== 'string') return dir;
  for (const [i, p] of patches.entries()) {
    const file = join(root, `${name}-${i}.patch`);
    await writeFile(file, p.text);
    const args = ['apply', '--whitespace=nowarn', ...(p.reverse ? ['-R'] : []), file];
    const applied = await git(dir, args);
    if (applied.exitCode !== 0)
      return { reason: `${p.name} does not ${p.reverse ? 'reverse' : 'apply'}: ${applied.output.trim()}` };
  }
  layTests(task.testsDir, dir);
  return dir;
}

/** The last lines of a check's output, where test runners say what failed. */
function tail(r: CheckOutcome): string {
  const lines = r.output.trim().split('\n').slice(-3).join(' | ');
  return `exit ${r.exitCode}${lines ? ` — ${lines.slice(-300)}` : ''}`;
}

/** One line per task for the terminal. */
export function validationLine(v: Validation): string {
  if (!v.ok) return `INVALID ${v.id}: ${v.reason}`;
  const times =
    v.afterSeconds === undefined
      ? `passes unchanged (${v.beforeSeconds} s)`
      : `fails without the patch (${v.beforeSeconds} s), passes with it (${v.afterSeconds} s)`;
  const alt = v.alternatives ? `, and with ${v.alternatives} other fix${v.alternatives > 1 ? 'es' : ''}` : '';
  const review = v.reviews ? `; fails without the review's part` : '';
  return `ok      ${v.id}: ${times}${alt}${review}`;
}
