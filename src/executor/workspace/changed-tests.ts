import { ASSERTION_GREP, isAssertionLine, isTestFile } from '../test-files.ts';
import { GitError } from './run-git.ts';

interface Git {
  run(args: string[]): Promise<string>;
}

/** A test file the branch modified or deleted (issue 48 item 2); added ones are not news. */
export interface ChangedTest {
  path: string;
  kind: 'modified' | 'deleted';
  /** Lines with an assertion at the fork point and now (0 for a deleted file). */
  before: number;
  after: number;
  /** A few assertion lines removed and added, `- …` / `+ …`. */
  lines: string[];
}

/** How many files are examined, and how many assertion lines each shows. */
const FILES = 20;
const SHOWN = 4;
/** A diff as git prints it bare: a checkout's settings (external diff, no prefix, colour) cannot change it. */
export const PLAIN_DIFF = [
  '--no-color',
  '--no-ext-diff',
  '--no-textconv',
  '--src-prefix=a/',
  '--dst-prefix=b/',
];

/** `git diff --name-status -z` of a branch: each changed path with its status letter. */
export interface BranchChange {
  code: string;
  path: string;
}

/**
 * The branch's changes since it left `base` (the fork point, as a PR shows it): two git runs by
 * the caller's sandboxed git.
 */
export async function branchChanges(g: Git, base: string, sha: string) {
  const fork = await g.run(['merge-base', base, sha]);
  const status = await g.run(['diff', '--name-status', '-z', '--no-renames', fork, sha]);
  const fields = status.split('\0');
  const changes: BranchChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2)
    changes.push({ code: fields[i] ?? '', path: fields[i + 1] ?? '' });
  return { fork, changes };
}

/**
 * The test files the branch changed since it left `base`, with their assertion counts before and
 * after and the assertion lines that changed. Four git runs at most.
 */
export async function changedTests(g: Git, base: string, sha: string): Promise<ChangedTest[]> {
  const { fork, changes } = await branchChanges(g, base, sha);
  return testsAmong(g, fork, sha, changes);
}

/**
 * The modified or deleted test files among `changes` (from `fork` to `sha`), read with two git
 * runs, or one when the caller has the branch's unified diff already (`diff`).
 */
export async function testsAmong(
  g: Git,
  fork: string,
  sha: string,
  changes: readonly BranchChange[],
  diff?: string,
): Promise<ChangedTest[]> {
  const files = changes
    .filter((c) => (c.code === 'M' || c.code === 'D') && isTestFile(c.path))
    .slice(0, FILES)
    .map((c) => ({ path: c.path, kind: c.code === 'M' ? ('modified' as const) : ('deleted' as const) }));
  if (!files.length) return [];
  const specs = files.map((f) => `:(literal)${f.path}`);
  const counts = await assertionCounts(g, [fork, sha], specs);
  const patch =
    diff ?? (await g.run(['diff', '-U0', '--no-renames', ...PLAIN_DIFF, fork, sha, '--', ...specs]));
  const shown = changedAssertionLines(patch);
  return files.map((f) => ({
    ...f,
    before: counts.get(`${fork}:${f.path}`) ?? 0,
    after: counts.get(`${sha}:${f.path}`) ?? 0,
    lines: (shown.get(f.path) ?? []).slice(0, SHOWN),
  }));
}

/** `git grep -c` over both commits at once: `<rev>:<path>` → lines with an assertion. */
async function assertionCounts(g: Git, revs: string[], specs: string[]): Promise<Map<string, number>> {
  // git grep exits 1 when no line matched anywhere: no counts, not a failure.
  const out = await g
    .run(['grep', '-c', '-E', '-I', ...ASSERTION_GREP, ...revs, '--', ...specs])
    .catch((err) => {
      if (err instanceof GitError) return '';
      throw err;
    });
  const counts = new Map<string, number>();
  for (const line of out.split('\n')) {
    const at = line.lastIndexOf(':');
    if (at > 0) counts.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return counts;
}

/** From a `-U0` diff: per file, the removed and added lines that hold an assertion. */
function changedAssertionLines(diff: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let file = '';
  // File names only in a file's header: in a hunk, `--- a/…` is a removed line.
  let inHeader = false;
  for (const line of diff.split('\n')) {
    if (line.startsWith('diff --git ')) {
      file = '';
      inHeader = true;
    } else if (line.startsWith('@@ ')) inHeader = false;
    else if (inHeader && line.startsWith('--- a/')) file = line.slice(6);
    else if (inHeader && line.startsWith('+++ b/')) file = line.slice(6);
    else if (file && !inHeader && /^[-+]/.test(line) && isAssertionLine(line)) {
      const list = out.get(file) ?? [];
      list.push(`${line[0]} ${line.slice(1).trim().slice(0, 160)}`);
      out.set(file, list);
    }
  }
  return out;
}

/** One line per changed test, for the commit answer and the PR body. */
export function changedTestLines(tests: readonly ChangedTest[]): string[] {
  return tests.map((t) => {
    const count =
      t.kind === 'deleted'
        ? `${t.before} assertion line${t.before === 1 ? '' : 's'} gone`
        : `assertion lines ${t.before} → ${t.after}`;
    const lines = t.lines.length ? `: ${t.lines.map((l) => `\`${l.replaceAll('`', "'")}\``).join(', ')}` : '';
    return `${t.path} (${t.kind}; ${count})${lines}`;
  });
}
