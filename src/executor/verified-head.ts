import { basename } from 'node:path';
import { isTestFile } from './test-files.ts';
import type { ChangedTest } from './workspace/changed-tests.ts';
import type { Verification } from './workspace/delivery-records.ts';

/** A commit and its tree: what a verification must have run on to count for it. */
export interface CommitTree {
  head: string;
  tree: string;
}

/** HEAD and its tree in one git call (run in the sandbox by the caller's `localGit`/`gitIn`). */
export async function headAndTree(g: { run(args: string[]): Promise<string> }): Promise<CommitTree> {
  const [head = '', tree = ''] = (await g.run(['rev-parse', 'HEAD', 'HEAD^{tree}'])).split('\n');
  return { head: head.trim(), tree: tree.trim() };
}

/**
 * Whether verification `v` ran on the files of commit `at` (R-C6, issue 28): the work tree it ran
 * on is the commit's tree — before or after committing it, so tests that passed need not run
 * again for a commit of the same content. A record from before issue 28 (no tree) counts only at
 * its own commit on a clean tree.
 */
export const ranOn = (v: Verification, at: CommitTree) =>
  v.tree !== undefined ? v.tree === at.tree : v.sha === at.head && !v.dirty;

/** The newest passing verification that counts for `at`, or undefined. */
export const passingFor = (runs: readonly Verification[], at: CommitTree) =>
  runs.findLast((v) => v.exitCode === 0 && ranOn(v, at));

const MAX_SHOWN = 200;

/** `cmd` as one Markdown code span: whitespace runs made one space, cut, fenced past its backticks. */
function codeSpan(cmd: string): string {
  const flat = cmd.split(/\s+/).filter(Boolean).join(' ');
  const shown = flat.length > MAX_SHOWN ? `${flat.slice(0, MAX_SHOWN)}…` : flat;
  let longest = 0;
  let run = 0;
  for (const ch of shown) {
    run = ch === '`' ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  const fence = '`'.repeat(longest + 1);
  const pad = longest ? ' ' : '';
  return `${fence}${pad}${shown}${pad}${fence}`;
}

/**
 * The line a PR body and a `done` report carry for the verification that makes HEAD ready
 * (issue 28): `Verified: \`npm test\` → exit 0 at \`<sha12>\``, saying where it ran when that
 * was before HEAD (uncommitted changes, or an earlier commit with the same files), and (issue 48
 * item 2) when the tests it ran include ones the branch changed (`changedTests`).
 */
export function verifiedLine(
  v: Verification,
  head: string,
  changedTests: readonly Pick<ChangedTest, 'path' | 'kind'>[] = [],
): string {
  const ranAt = `\`${v.sha.slice(0, 12)}\`${v.dirty ? ' with uncommitted changes' : ''}`;
  const earlier = v.sha === head && !v.dirty ? '' : ` (ran at ${ranAt}, on the same files)`;
  const ran = changedTestsRun(v.command, changedTests);
  const changed = ran.length
    ? `; the tests it ran include ${ran.length === 1 ? 'one' : 'some'} this branch changed: ${ran.slice(0, 5).join(', ')}${ran.length > 5 ? ` and ${ran.length - 5} more` : ''}`
    : '';
  return `Verified: ${codeSpan(v.command)} → exit 0 at \`${head.slice(0, 12)}\`${earlier}${changed}`;
}

/**
 * Which of the branch's changed tests a command ran: those it names; none when it names other
 * test or source files only; all of them when it names none (`npm test`, `node --test`, `pytest`).
 * A test the branch deleted ran in none: it is not there to run.
 */
export function changedTestsRun(
  command: string,
  tests: readonly Pick<ChangedTest, 'path' | 'kind'>[],
): string[] {
  const changed = tests.filter((t) => t.kind !== 'deleted').map((t) => t.path);
  const words = command.split(/\s+/).filter(Boolean);
  const folders = words.map((w) => `${w.replace(/^\.\//, '').replace(/\/$/, '')}/`);
  const named = changed.filter(
    (p) => command.includes(p) || command.includes(basename(p)) || folders.some((f) => p.startsWith(f)),
  );
  if (named.length) return named;
  const narrowed = words.some((w) => isTestFile(w) || /\.(js|mjs|cjs|ts|tsx|py|go|rb|java)$/.test(w));
  return narrowed ? [] : [...changed];
}
