import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

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

export function gitAt(cwd: string, home: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: GIT_ENV(home), stdio: 'pipe' }).trim();
}

/** The person's branch a `github-pr-comment` task's pull request comes from. */
export const PERSON_BRANCH = 'person/work';

/** Makes `<root>/repo.git` from `repoDir`; with `personBranch`, pushes that branch too. */
export function makeTaskRepo(root: string, repoDir: string, personBranch: boolean): string {
  const bare = join(root, 'repo.git');
  const seed = join(root, 'seed');
  mkdirSync(seed, { recursive: true });
  cpSync(repoDir, seed, { recursive: true, verbatimSymlinks: true });
  gitAt(root, root, 'init', '-q', '--bare', '-b', 'main', bare);
  gitAt(seed, root, 'init', '-q', '-b', 'main');
  gitAt(seed, root, 'add', '-A');
  gitAt(seed, root, 'commit', '-q', '-m', 'start');
  gitAt(seed, root, 'push', '-q', bare, 'main');
  if (personBranch) {
    gitAt(seed, root, 'checkout', '-q', '-b', PERSON_BRANCH);
    gitAt(seed, root, 'commit', '-q', '--allow-empty', '-m', 'Work in progress');
    gitAt(seed, root, 'push', '-q', bare, PERSON_BRANCH);
  }
  return bare;
}

/** Every branch of the bare repository with its head commit. */
export function branchesOf(bare: string, home: string): Map<string, string> {
  const out = gitAt(bare, home, 'for-each-ref', '--format=%(refname:short) %(objectname)', 'refs/heads');
  return new Map(
    out
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split(' ') as [string, string]),
  );
}
