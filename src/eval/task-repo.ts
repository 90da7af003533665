import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { GitError, git } from '../executor/workspace/run-git.ts';
import type { TaskRepo } from './task.ts';

/**
 * A task's repository for a run: `repo/` committed as its first commit on `main` in a bare
 * repository the loopback GitHub serves; a pull-request task also gets a person's branch with one
 * commit of its own, the pull request the request is a comment on.
 */

const GIT_ENV = (home: string) => ({
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: home,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Eval Person',
  GIT_AUTHOR_EMAIL: 'person@switchyard.invalid',
  GIT_COMMITTER_NAME: 'Eval Person',
  GIT_COMMITTER_EMAIL: 'person@switchyard.invalid',
});

/** git through the executor's spawn host: the runner's process (the web process's, or a test's) is not forked. */
export function gitIn(cwd: string, home: string, ...args: string[]): Promise<string> {
  return git(GIT_ENV(home), cwd, args);
}

/** The person's branch a `github-pr-comment` task's pull request comes from. */
export const PERSON_BRANCH = 'person/work';

/**
 * Writes a task's files at the start into `dest`, a folder not there yet, with no `.git`: `repo/`
 * copied, or `repo.bundle` cloned (its HEAD checked out) and its `.git` removed, so either is then
 * committed fresh. Only host git runs, before any of the task's code. Throws `GitError` with git's
 * words when the bundle does not unpack.
 */
export async function writeStartTree(repo: TaskRepo, dest: string, home: string): Promise<void> {
  if (existsSync(dest)) throw new Error(`${dest} is there already`);
  if (repo.kind === 'dir') {
    cpSync(repo.path, dest, { recursive: true, verbatimSymlinks: true });
    return;
  }
  await gitIn(dirname(dest), home, 'clone', '-q', '--no-hardlinks', repo.path, dest);
  rmSync(join(dest, '.git'), { recursive: true, force: true });
  if (readdirSync(dest).length === 0) throw new GitError('repo.bundle has no HEAD with files to check out');
}

/** Makes `<root>/repo.git` from the task's files at the start; with `personBranch`, pushes that branch too. */
export async function makeTaskRepo(root: string, repo: TaskRepo, personBranch: boolean): Promise<string> {
  const bare = join(root, 'repo.git');
  const seed = join(root, 'seed');
  mkdirSync(root, { recursive: true });
  await writeStartTree(repo, seed, root);
  await gitIn(root, root, 'init', '-q', '--bare', '-b', 'main', bare);
  await gitIn(seed, root, 'init', '-q', '-b', 'main');
  await gitIn(seed, root, 'add', '-A');
  await gitIn(seed, root, 'commit', '-q', '-m', 'start');
  await gitIn(seed, root, 'push', '-q', bare, 'main');
  if (personBranch) {
    await gitIn(seed, root, 'checkout', '-q', '-b', PERSON_BRANCH);
    await gitIn(seed, root, 'commit', '-q', '--allow-empty', '-m', 'Work in progress');
    await gitIn(seed, root, 'push', '-q', bare, PERSON_BRANCH);
  }
  return bare;
}

/** Every branch of the bare repository with its head commit. */
export async function branchesOf(bare: string, home: string): Promise<Map<string, string>> {
  const out = await gitIn(
    bare,
    home,
    'for-each-ref',
    '--format=%(refname:short) %(objectname)',
    'refs/heads',
  );
  return new Map(
    out
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split(' ') as [string, string]),
  );
}
