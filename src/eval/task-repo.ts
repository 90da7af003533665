import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { git } from '../executor/workspace/run-git.ts';

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

/** Makes `<root>/repo.git` from `repoDir`; with `personBranch`, pushes that branch too. */
export async function makeTaskRepo(root: string, repoDir: string, personBranch: boolean): Promise<string> {
  const bare = join(root, 'repo.git');
  const seed = join(root, 'seed');
  mkdirSync(seed, { recursive: true });
  cpSync(repoDir, seed, { recursive: true, verbatimSymlinks: true });
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
