import { type ProcessResult, runProcess } from './run-process.ts';

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
