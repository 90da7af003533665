import { join, resolve } from 'node:path';
import type { Ctx } from '../../context.ts';
import type { TurnScope } from '../turn-scope.ts';
import { assertOwnGitDir, filterOverrides, withConfig } from './checkout-git.ts';
import { commandEnv } from './command-env.ts';
import { GIT_HARDENING } from './host-git-env.ts';
import { remoteSha } from './mirror.ts';
import { git } from './run-git.ts';
import type { Workspace } from './workspace-record.ts';

export { GitError, git } from './run-git.ts';
export { loadWorkspace, type Workspace } from './workspace-record.ts';

/** Where a ticket's checkout and its command home live; the key prefix keeps deployments apart. */
export function workspacePaths(ctx: Pick<Ctx, 'config' | 'keys'>, ticketId: string) {
  const root = resolve(ctx.config.WORKSPACE_DIR, ctx.keys.prefix);
  return { root, dir: join(root, ticketId), home: join(root, '.home', ticketId) };
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
 * The environment of the host's own local git in a checkout: the command allow-list, the bot as
 * author, no global or system config (the ticket's HOME is the sandbox's to write), no network
 * transport at all, and settings that keep anything the model wrote into `.git` (hooks, an
 * fsmonitor command, signing programs) from running. Network git never runs in a checkout: it
 * runs in the host's mirror (`mirror.ts`).
 */
export function gitEnv(
  _ctx: Pick<Ctx, 'config'>,
  ws: Pick<Workspace, 'home'>,
  login: string,
): Record<string, string> {
  const email = `${login}@users.noreply.github.com`;
  const base = commandEnv(ws.home, process.env, {
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_ALLOW_PROTOCOL: 'none',
    GIT_PROTOCOL_FROM_USER: '0',
    GIT_AUTHOR_NAME: login,
    GIT_AUTHOR_EMAIL: email,
    GIT_COMMITTER_NAME: login,
    GIT_COMMITTER_EMAIL: email,
  });
  return withConfig(base, [...GIT_HARDENING, ['core.attributesFile', '/dev/null']]);
}

/**
 * `gitEnv` pinned to the checkout's own `.git` and work tree (a planted `core.worktree` or
 * `gitdir:` file cannot point it elsewhere), with every filter driver switched off.
 */
export async function checkoutGitEnv(
  ctx: Pick<Ctx, 'config'>,
  ws: Pick<Workspace, 'home' | 'dir'>,
  login: string,
): Promise<Record<string, string>> {
  const gitDir = await assertOwnGitDir(ws.dir);
  const env = { ...gitEnv(ctx, ws, login), GIT_DIR: gitDir, GIT_WORK_TREE: ws.dir };
  return withConfig(env, await filterOverrides(env, ws.dir));
}

/**
 * A workspace tool's handle on the checkout: local git (hardened, `checkoutGitEnv`), HEAD, and
 * the branch's sha at GitHub, asked by the host's mirror — never through the checkout's remotes.
 */
export function gitIn(scope: TurnScope, ws: Workspace, login: string) {
  const { ctx } = scope.rt;
  const run = async (args: string[], timeoutMs?: number) =>
    git(await checkoutGitEnv(ctx, ws, login), ws.dir, args, timeoutMs);
  return {
    run,
    head: () => run(['rev-parse', 'HEAD']),
    /** The sha of the ticket's branch at the remote, or undefined. */
    remoteHead: () => remoteSha(ctx, ws, `refs/heads/${ws.branch}`),
  };
}
