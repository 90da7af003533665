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

/**
 * The test files the branch changed since it left `base` (the fork point, as a PR shows it),
 * with their assertion counts before and after and the assertion lines that changed. Four git
 * runs at most, by the caller's sandboxed git.
 */
export async function changedTests(g: Git, base: string, sha: string): Promise<ChangedTest[]> {
  const fork = await g.run(['merge-base', base, sha]);
  const status = await g.run(['diff', '--name-status', '-z', '--no-renames', fork, sha]);
  const fields = status.split('\0');
  const touched: { path: string; kind: ChangedTest['kind'] }[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [code, path] = [fields[i], fields[i + 1] ?? ''];
    if ((code === 'M' || code === 'D') && isTestFile(path))
      touched.push({ path, kind: code === 'M' ? 'modified' : 'deleted' });
  }
  const files = touched.slice(0, FILES);
  if (!files.length) return [];
  const specs = files.map((f) => `:(literal)${f.path}`);
  const counts = await assertionCounts(g, [fork, sha], specs);
  const diff = await g.run([
    'diff',
    '-U0',
    '--no-renames',
    '--no-color',
    '--no-ext-diff',
    '--no-textconv',
    fork,
    sha,
    '--',
    ...specs,
  ]);
  const shown = changedAssertionLines(diff);
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
  for (const line of diff.split('\n')) {
    if (line.startsWith('diff --git ')) file = '';
    else if (line.startsWith('--- a/')) file = line.slice(6);
    else if (line.startsWith('+++ b/')) file = line.slice(6);
    else if (file && /^[-+]/.test(line) && !/^(---|\+\+\+) /.test(line) && isAssertionLine(line)) {
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
