import { GIT_HARDENING } from '../workspace/host-git-env.ts';
import { GitError } from '../workspace/run-git.ts';
import type { Workspace } from '../workspace/workspace-record.ts';
import { type CheckoutRunResult, runOnCheckout } from './sandbox-command.ts';
import type { SandboxConfig } from './sandbox-settings.ts';

/**
 * The environment of git the host starts on a checkout (in the sandbox): the host's hardening
 * (`GIT_HARDENING`), given at the command line's level so it beats anything a command wrote into
 * `.git/config` (issue 13, issue 31: hooks, fsmonitor, signing and signature-verifying programs,
 * external diffs, a pager), no replace refs, no global or system config, the bot as author.
 */
export function localGitEnv(login: string): Record<string, string> {
  const env: Record<string, string> = {
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_NO_REPLACE_OBJECTS: '1',
    GIT_PAGER: 'cat',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_COUNT: String(GIT_HARDENING.length),
  };
  GIT_HARDENING.forEach(([k, v], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = k;
    env[`GIT_CONFIG_VALUE_${i}`] = v;
  });
  const email = `${login}@users.noreply.github.com`;
  return {
    ...env,
    GIT_AUTHOR_NAME: login,
    GIT_AUTHOR_EMAIL: email,
    GIT_COMMITTER_NAME: login,
    GIT_COMMITTER_EMAIL: email,
  };
}

interface LocalGitOptions {
  writable?: boolean;
  timeoutMs?: number;
  capBytes?: number;
}

/**
 * Local git on a ticket's checkout (status, add, commit, ls-files, grep) runs in the sandbox like
 * any repository code, without network: the checkout's own config can name programs (a filter
 * driver, `diff.external`, `core.sshCommand`), and those run there, out of reach of the bot's
 * token and processes. Network git is the host's alone (R-H4).
 */
export function localGit(config: SandboxConfig, ws: Pick<Workspace, 'dir' | 'home'>, login: string) {
  const raw = (args: string[], opts: LocalGitOptions = {}) =>
    runOnCheckout(config, ws, ['git', ...args], {
      writable: opts.writable ?? false,
      timeoutMs: opts.timeoutMs ?? 120_000,
      capBytes: opts.capBytes ?? 200_000,
      network: 'none',
      env: localGitEnv(login),
    });
  return {
    /** The result as is (exit codes that mean something, like `git grep`'s 1). */
    raw,
    /** stdout of a successful run; otherwise a `GitError` with git's words (or the refusal). */
    async run(args: string[], opts: { writable?: boolean; timeoutMs?: number } = {}): Promise<string> {
      return gitOutput(args, await raw(args, opts));
    },
    head: async () => gitOutput(['rev-parse'], await raw(['rev-parse', 'HEAD'])),
  };
}

function gitOutput(args: string[], got: CheckoutRunResult): string {
  if (!got.ok) throw new GitError(got.refusal);
  const r = got.result;
  if (r.exitCode !== 0) {
    const why = r.timedOut ? 'timed out' : `exit ${r.exitCode}`;
    throw new GitError(`git ${args[0]} failed (${why}): ${r.output.trim().slice(-800)}`);
  }
  return r.stdout.trim();
}
