import { randomUUID } from 'node:crypto';
import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Ctx } from '../../context.ts';
import { importCommit } from './import-commit.ts';
import { mirrorRoot } from './mirror.ts';
import { readStepMarker, writeStepMarker } from './step-marker.ts';
import { stepRepoGit, withStepRepo } from './step-repo.ts';
import { type WorkTree, workTree } from './work-tree.ts';
import { workspacePaths } from './workspace.ts';
import { loadWorkspace, type Workspace } from './workspace-record.ts';
import { saveWorkspaceStep, workspaceStepState } from './workspace-step-record.ts';

/** A step whose bundle is larger is not recorded (the previous one stays); the log says so. */
export const STEP_CAP_BYTES = 16 * 1024 * 1024;

/** The ref a ticket's work-in-progress commit has in its step repository and in its bundle. */
export const wipRef = (ticketId: string) => `refs/sy/wip/${ticketId}`;

type StepCtx = Ctx;

/**
 * The step's work-in-progress commit as a bundle, without what the base commit already has: it
 * is imported (fsck, no checkout config) into a step repository that borrows the mirror's objects
 * and is deleted afterwards (`withStepRepo`, issue 45), so steps leave nothing on the host.
 */
async function stepBundle(ctx: StepCtx, ws: Workspace, ticketId: string, sha: string): Promise<Buffer> {
  return withStepRepo(ctx, ws.repo, async (repo) => {
    await importCommit(ctx, ws.repo, ws.dir, ticketId, sha, wipRef(ticketId), repo);
    return bundleOf(ctx, ws, ticketId, repo);
  });
}

/** A step repository's work-in-progress ref as a bundle file's bytes. */
async function bundleOf(ctx: StepCtx, ws: Workspace, ticketId: string, repo: string): Promise<Buffer> {
  const file = join(mirrorRoot(ctx).tmp, `step-${randomUUID().slice(0, 8)}.bundle`);
  try {
    const not = ws.baseSha ? [`^${ws.baseSha}`] : [];
    await stepRepoGit(ctx, repo, ['bundle', 'create', '-q', file, wipRef(ticketId), ...not]);
    return await readFile(file);
  } finally {
    await rm(file, { force: true });
  }
}

/** The ticket's checkout on this machine, if there is one (a record naming another machine's is not). */
async function localWorkspace(ctx: StepCtx, ticketId: string): Promise<Workspace | undefined> {
  const ws = await loadWorkspace(ctx, ticketId);
  if (!ws || ws.dir !== workspacePaths(ctx, ticketId).dir) return undefined;
  const ok = await stat(join(ws.dir, '.git')).then(
    () => true,
    () => false,
  );
  return ok ? ws : undefined;
}

/**
 * Issue 28: the checkout is exactly the last recorded step — same work tree, HEAD and branch — and
 * this machine's marker says it is at that step, so recording again would store the same state.
 */
async function sameAsRecorded(ctx: StepCtx, ticketId: string, now: WorkTree): Promise<boolean> {
  const last = await workspaceStepState(ctx, ticketId);
  if (!last?.tree || last.tree !== now.tree || last.head !== now.head || last.headRef !== now.headRef)
    return false;
  return (await readStepMarker(ctx, ticketId)) === last.id;
}

/**
 * Records the checkout's state after a tool call that may have changed it (issue 19 "workspaces
 * follow their turn"): its work-in-progress commit is imported like a commit being pushed (fsck,
 * no checkout config) into a step repository deleted afterwards, bundled with the commits the base lacks
 * (unpushed ones included) and stored with the call's key, so a worker resuming the turn restores
 * exactly this state. A call that changed nothing (issue 28: `cat`, a passing test run) leaves the
 * last step and the marker as they are: restoring it restores this state. Failures are logged,
 * never the tool's: the step itself happened.
 */
export async function recordWorkspaceStep(ctx: StepCtx, ticketId: string, step: string): Promise<void> {
  try {
    const ws = await localWorkspace(ctx, ticketId);
    if (!ws) return;
    const now = await workTree(ctx.config, ws, 'switchyard', { wip: true });
    if (await sameAsRecorded(ctx, ticketId, now)) return;
    const wip = { sha: now.wip ?? '', head: now.head, headRef: now.headRef };
    const bundle = await stepBundle(ctx, ws, ticketId, wip.sha);
    if (bundle.length > STEP_CAP_BYTES) {
      ctx.log.warn(
        { ticketId, step, bytes: bundle.length, capBytes: STEP_CAP_BYTES },
        'workspace step not recorded: its bundle is over the cap; a worker resuming this turn restores the previous step',
      );
      return;
    }
    const id = randomUUID();
    await saveWorkspaceStep(
      ctx,
      ticketId,
      { id, step, head: wip.head, headRef: wip.headRef, tree: now.tree, at: ctx.now() },
      bundle,
    );
    await writeStepMarker(ctx, ticketId, id);
  } catch (err) {
    ctx.log.warn({ ticketId, step, err }, 'workspace step not recorded');
  }
}
