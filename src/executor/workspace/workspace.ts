import { join, resolve } from 'node:path';
import type { Ctx } from '../../context.ts';
import { localGit } from '../sandbox/local-git.ts';
import type { TurnScope } from '../turn-scope.ts';
import { remoteSha } from './mirror.ts';
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
 * A workspace tool's handle on the checkout: local git run in the sandbox (`localGit`) — the host
 * never runs git against a checkout's `.git`, whose config a command may have written (issue 31:
 * a planted `log.showSignature` and `gpg.program` ran on the host through `git log`) — HEAD, and
 * the branch's sha at GitHub, asked by the host's mirror, never through the checkout's remotes.
 */
export function gitIn(scope: TurnScope, ws: Workspace, login: string) {
  const { ctx } = scope.rt;
  const local = localGit(ctx.config, ws, login);
  const run = (args: string[], timeoutMs?: number) =>
    local.run(args, timeoutMs === undefined ? {} : { timeoutMs });
  return {
    run,
    head: () => local.head(),
    /** The sha of the ticket's branch at the remote, or undefined. */
    remoteHead: () => remoteSha(ctx, ws, `refs/heads/${ws.branch}`),
  };
}
