import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { GitError } from './run-git.ts';

/**
 * The checkout's `.git` must be its own directory: a `gitdir:` file or a link could point the
 * host's git at another ticket's repository or anywhere on the host.
 */
export async function assertOwnGitDir(dir: string): Promise<string> {
  const gitDir = join(dir, '.git');
  const st = await lstat(gitDir).catch(() => undefined);
  if (!st?.isDirectory() || st.isSymbolicLink())
    throw new GitError('refused: the checkout’s .git is not a directory of its own (issue 13)');
  return gitDir;
}
