import type { TokenPurpose } from '../../channels/github/token-scope.ts';
import type { Ctx } from '../../context.ts';
import { importCommit } from './import-commit.ts';
import { mirrorLocal, mirrorNet } from './mirror.ts';
import type { Workspace } from './workspace.ts';

/**
 * Pushes commit `sha` of the ticket's checkout to the ticket's branch at GitHub, from the host's
 * mirror (issue 13, R-H4): the commit is imported into the mirror first, then pushed there with
 * the token for this repository and push only. The checkout's remotes, config and hooks play no
 * part; a rejected push (not a fast-forward, protected branch) throws `GitError` with git's words.
 */
export async function pushBranch(ctx: Ctx, ws: Workspace, ticketId: string, sha: string): Promise<void> {
  await importCommit(ctx, ws.repo, ws.dir, ticketId, sha);
  const purpose = await pushPurpose(ctx, ws, sha);
  await mirrorNet(ctx, ws, purpose, [
    'push',
    '-q',
    '--no-verify',
    ws.cloneUrl,
    `${sha}:refs/heads/${ws.branch}`,
  ]);
  await mirrorLocal(ctx, ws.repo, ['update-ref', `refs/heads/${ws.branch}`, sha]);
}

/** GitHub refuses a change to `.github/workflows/` without the `workflows` permission. */
async function pushPurpose(ctx: Ctx, ws: Workspace, sha: string): Promise<TokenPurpose> {
  const base = ws.baseSha ?? `refs/heads/${ws.base}`;
  const changed = await mirrorLocal(ctx, ws.repo, [
    'diff',
    '--name-only',
    base,
    sha,
    '--',
    '.github/workflows',
  ]).catch(() => '');
  return changed ? 'push-workflows' : 'push';
}
