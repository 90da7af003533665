import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The commit before issue 28 began: the "before" of its benches. */
export const BEFORE_ISSUE_28 = '798e570804afaceb514e6744ecac0c008c385345';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Today's fake model (`test/kit/fake-llm*`), copied into a "before" tree so both sides run it. */
export function fakeModelFiles(): string[] {
  return readdirSync(join(REPO, 'test/kit'))
    .filter((f) => f.startsWith('fake-llm'))
    .map((f) => `test/kit/${f}`);
}

/**
 * Runs `bench/<module> --json` in a git worktree of `commit` (the dependencies of this checkout
 * shared, `files` — paths relative to the repository — copied in from this checkout first), in a
 * process of its own, and returns what it printed as JSON; undefined if the worktree cannot be
 * made or the run fails. The worktree is removed afterwards.
 */
export function runInTree<T>(commit: string, module: string, files: string[]): T | undefined {
  const tree = mkdtempSync(join(tmpdir(), 'sy-before-'));
  try {
    execFileSync('git', ['worktree', 'add', '-q', '--detach', tree, commit], { cwd: REPO, stdio: 'ignore' });
    symlinkSync(join(REPO, 'node_modules'), join(tree, 'node_modules'));
    for (const f of files) cpSync(join(REPO, f), join(tree, f));
    const out = execFileSync('npx', ['tsx', `bench/${module}`, '--json'], {
      cwd: tree,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 900_000,
    });
    return JSON.parse(out.slice(out.search(/[[{]/))) as T;
  } catch {
    return undefined;
  } finally {
    try {
      execFileSync('git', ['worktree', 'remove', '--force', tree], { cwd: REPO, stdio: 'ignore' });
    } catch {
      if (existsSync(tree)) rmSync(tree, { recursive: true, force: true });
    }
  }
}
