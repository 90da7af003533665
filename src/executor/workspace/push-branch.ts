import type { Ctx } from '../../context.ts';
import { currentFence } from '../../store/fence.ts';
import { ciEntryOf, ciPathspecs, namesOfZ, WORKFLOWS_DIR } from './ci-config-paths.ts';
import { recordPush } from './delivery-records.ts';
import { importCommit } from './import-commit.ts';
import { mirrorLocal, mirrorNet } from './mirror.ts';
import type { Workspace } from './workspace.ts';

/** Pushed, or refused because its new commits change CI configuration nobody allowed (issue 31). */
export type PushOutcome = { ok: true } | { ok: false; ciFiles: string[] };

/**
 * Pushes commit `sha` of the ticket's checkout to the ticket's branch at GitHub, from the host's
 * mirror (issue 13, R-H4): the commit is imported into the mirror first, then pushed there with
 * the token for this repository and push only. The checkout's remotes, config and hooks play no
 * part; a rejected push (not a fast-forward, protected branch) throws `GitError` with git's words.
 * Issue 31: when the commits it would add change CI configuration (`CI_CONFIG_PATHS`), nothing is
 * pushed unless `mayChangeCi` allows those files; only then is the token asked for `workflows`.
 * Issue 46: a turn that lost its ticket to a newer runner pushes nothing (`FencedError`), checked
 * before the work and again just before the push.
 */
export async function pushBranch(
  ctx: Ctx,
  ws: Workspace,
  ticketId: string,
  sha: string,
  mayChangeCi: (files: string[]) => Promise<boolean>,
): Promise<PushOutcome> {
  const fence = currentFence();
  await fence?.check();
  await importCommit(ctx, ws.repo, ws.dir, ticketId, sha);
  const ciFiles = await ciFilesAdded(ctx, ws, sha);
  if (ciFiles.length && !(await mayChangeCi(ciFiles))) return { ok: false, ciFiles };
  // GitHub refuses a change to `.github/workflows/` without the `workflows` permission.
  const workflows = ciFiles.some((f) => ciEntryOf([WORKFLOWS_DIR], f));
  await fence?.check();
  await mirrorNet(ctx, ws, workflows ? 'push-workflows' : 'push', [
    'push',
    '-q',
    '--no-verify',
    ws.cloneUrl,
    `${sha}:refs/heads/${ws.branch}`,
  ]);
  await mirrorLocal(ctx, ws.repo, ['update-ref', `refs/heads/${ws.branch}`, sha]);
  const tree = await mirrorLocal(ctx, ws.repo, ['rev-parse', `${sha}^{tree}`]);
  await recordPush(ctx, ticketId, { sha, at: ctx.now(), tree });
  return { ok: true };
}

/**
 * The CI configuration files that the commits up to `sha` not yet on the repository's branches
 * change (as far as the mirror knows them: the base and the ticket's branch as last pushed). PR
 * heads do not count as the repository's own: GitHub keeps a fork's under `refs/pull/`, and its
 * commits pushed to a branch would run as the repository's CI, with its secrets. Every such commit
 * counts, not only the net change, and a merge counts for what it changes against all its parents
 * (`-c`): a clean merge of the base adds nothing of its own.
 */
async function ciFilesAdded(ctx: Ctx, ws: Workspace, sha: string): Promise<string[]> {
  const out = await mirrorLocal(ctx, ws.repo, [
    'log',
    '-z',
    '-c',
    '--no-renames',
    '--format=',
    '--name-only',
    sha,
    '--not',
    '--branches',
    '--',
    ...ciPathspecs(ctx.config.CI_CONFIG_PATHS),
  ]);
  return namesOfZ(out);
}
