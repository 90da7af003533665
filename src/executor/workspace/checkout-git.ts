import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { GitError, git } from './run-git.ts';

/** Config keys that name a program git would run while adding, committing or checking out. */
const FILTER_KEY = /^filter\.(.+)\.(clean|smudge|process|required)$/i;

/**
 * `GIT_CONFIG_*` entries that switch off every filter driver the checkout's config (or a file it
 * includes) defines: a command may have planted `filter.x.clean = <program>` plus a
 * `.gitattributes` line, which the host's own `git add` would otherwise run outside the sandbox
 * (issue 13). Read with `git config` itself, which runs nothing.
 */
export async function filterOverrides(env: Record<string, string>, dir: string): Promise<[string, string][]> {
  const out = await git(env, dir, ['config', '--list', '--name-only', '-z']).catch(() => '');
  const names = new Set<string>();
  for (const key of out.split('\0')) {
    const m = FILTER_KEY.exec(key.trim());
    if (m?.[1]) names.add(m[1]);
  }
  return [...names].flatMap((n): [string, string][] => [
    [`filter.${n}.clean`, ''],
    [`filter.${n}.smudge`, ''],
    [`filter.${n}.process`, ''],
    [`filter.${n}.required`, 'false'],
  ]);
}

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

/** Adds `pairs` to an environment's `GIT_CONFIG_COUNT` list. */
export function withConfig(env: Record<string, string>, pairs: [string, string][]): Record<string, string> {
  const out = { ...env };
  let n = Number(out.GIT_CONFIG_COUNT ?? 0);
  for (const [k, v] of pairs) {
    out[`GIT_CONFIG_KEY_${n}`] = k;
    out[`GIT_CONFIG_VALUE_${n}`] = v;
    n++;
  }
  out.GIT_CONFIG_COUNT = String(n);
  return out;
}
