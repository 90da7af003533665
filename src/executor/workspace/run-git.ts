import { type ProcessResult, runProcess } from './run-process.ts';

/** A whole commit id as git prints it (SHA-1, lower case): never a ref name, an option or a prefix. */
export function isCommitId(s: string): boolean {
  return /^[0-9a-f]{40}$/.test(s);
}

export class GitError extends Error {
  override name = 'GitError' as const;
  readonly code = 'git_failed';
}

/** Runs git in `cwd` with exactly `env`; a failure throws `GitError` with git's own words. */
export async function git(
  env: Record<string, string>,
  cwd: string,
  args: string[],
  timeoutMs = 120_000,
): Promise<string> {
  const r: ProcessResult = await runProcess('git', args, { cwd, env, timeoutMs, capBytes: 200_000 });
  if (r.exitCode !== 0) {
    const why = r.timedOut ? 'timed out' : `exit ${r.exitCode}`;
    throw new GitError(`git ${args[0]} failed (${why}): ${r.output.trim().slice(-800)}`);
  }
  return r.stdout.trim();
}
