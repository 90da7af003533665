import { join, resolve } from 'node:path';
import type { Ctx } from '../../context.ts';
import type { TurnScope } from '../turn-scope.ts';
import { commandEnv } from './command-env.ts';
import { gitAuthConfig, githubAccess } from './github-access.ts';
import { type ProcessResult, runProcess } from './run-process.ts';

/** A ticket's checkout as recorded in Redis (`ticketWorkspace`). */
export interface Workspace {
  repo: string;
  cloneUrl: string;
  /** The checkout: `WORKSPACE_DIR/<prefix>/<ticket>`. */
  dir: string;
  /** The ticket's own HOME for commands, outside the checkout. */
  home: string;
  branch: string;
  /** The repository's default branch: the PR's base. */
  base: string;
}

/** Where a ticket's checkout and its command home live; the key prefix keeps deployments apart. */
export function workspacePaths(ctx: Pick<Ctx, 'config' | 'keys'>, ticketId: string) {
  const root = resolve(ctx.config.WORKSPACE_DIR, ctx.keys.prefix);
  return { root, dir: join(root, ticketId), home: join(root, '.home', ticketId) };
}

export async function loadWorkspace(ctx: Pick<Ctx, 'redis' | 'keys'>, ticketId: string) {
  const raw = await ctx.redis.get(ctx.keys.ticketWorkspace(ticketId));
  return raw ? (JSON.parse(raw) as Workspace) : undefined;
}

/** `sy/<ticket>-<slug of the title>`: one branch per ticket, readable in GitHub's branch list. */
export function branchName(ticketId: string, title: string): string {
  const slug = title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  // At most 32 characters, cut at a word boundary when there is one.
  const cut = slug.length > 32 ? slug.slice(0, 33).replace(/-[^-]*$/, '') || slug.slice(0, 32) : slug;
  return `sy/${ticketId}${cut ? `-${cut}` : ''}`;
}

/**
 * The environment of the host's own git processes: the command allow-list, the bot as author,
 * and settings that keep anything the model wrote into `.git` (hooks, an fsmonitor command) from
 * running inside them. Only network calls pass `token` (`GITHUB_TOKEN`, or the App's installation
 * token for the repository), sent to the clone URL's host only (`gitAuthConfig`).
 */
export function gitEnv(
  _ctx: Pick<Ctx, 'config'>,
  ws: Pick<Workspace, 'home' | 'cloneUrl'>,
  login: string,
  token?: string,
): Record<string, string> {
  const pairs: [string, string][] = [
    ['core.hooksPath', '/dev/null'],
    ['core.fsmonitor', 'false'],
    ...gitAuthConfig(ws.cloneUrl, token),
  ];
  const config: Record<string, string> = { GIT_CONFIG_COUNT: String(pairs.length) };
  pairs.forEach(([k, v], i) => {
    config[`GIT_CONFIG_KEY_${i}`] = k;
    config[`GIT_CONFIG_VALUE_${i}`] = v;
  });
  const email = `${login}@users.noreply.github.com`;
  return commandEnv(ws.home, process.env, {
    ...config,
    GIT_AUTHOR_NAME: login,
    GIT_AUTHOR_EMAIL: email,
    GIT_COMMITTER_NAME: login,
    GIT_COMMITTER_EMAIL: email,
  });
}

export class GitError extends Error {
  override name = 'GitError' as const;
  readonly code = 'git_failed';
}

/** Runs git in the checkout; a failure throws `GitError` with git's own words. */
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

/**
 * A workspace tool's handle on the checkout: local git, network git (with the token, addressed to
 * the `clone_url` itself rather than a remote the model could have re-pointed), and HEAD.
 */
export function gitIn(scope: TurnScope, ws: Workspace, login: string) {
  const { ctx } = scope.rt;
  const env = gitEnv(ctx, ws, login);
  // Asked for at each call: an App installation token may have been replaced since.
  const netEnv = async () => gitEnv(ctx, ws, login, await githubAccess(ctx).token(ws.repo));
  return {
    run: (args: string[], timeoutMs?: number) => git(env, ws.dir, args, timeoutMs),
    net: async (args: string[], timeoutMs = 300_000) => git(await netEnv(), ws.dir, args, timeoutMs),
    head: () => git(env, ws.dir, ['rev-parse', 'HEAD']),
    /** The sha of the ticket's branch at the remote, or undefined. */
    remoteHead: async () =>
      (await git(await netEnv(), ws.dir, ['ls-remote', ws.cloneUrl, `refs/heads/${ws.branch}`])).split(
        /\s/,
      )[0] || undefined,
  };
}
