import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Ctx } from '../../context.ts';
import { localGitEnv } from '../sandbox/local-git.ts';
import { runOnCheckout } from '../sandbox/sandbox-command.ts';
import { importCommit } from './import-commit.ts';
import { mirrorLocal, mirrorRoot } from './mirror.ts';
import { GitError } from './run-git.ts';
import { writeStepMarker } from './step-marker.ts';
import { workspacePaths } from './workspace.ts';
import { loadWorkspace, type Workspace } from './workspace-record.ts';
import { saveWorkspaceStep } from './workspace-step-record.ts';

/** A step whose bundle is larger is not recorded (the previous one stays); the log says so. */
export const STEP_CAP_BYTES = 16 * 1024 * 1024;

/** The ref a ticket's work-in-progress commit has in the host's mirror and in its bundle. */
export const wipRef = (ticketId: string) => `refs/sy/wip/${ticketId}`;

/**
 * The work-in-progress commit, made in the sandbox (the checkout's config may name programs): the
 * whole working tree — changed, new and deleted files, not ignored ones — as a tree on top of HEAD,
 * through a temporary index, so the checkout's own index, HEAD and branches stay as they are.
 * Prints the commit, the ref HEAD is on ('' when detached) and HEAD.
 */
const WIP_SCRIPT = `set -e
dir=$(mktemp -d)
export GIT_INDEX_FILE="$dir/index"
cp "$(git rev-parse --git-path index)" "$GIT_INDEX_FILE" 2>/dev/null || git read-tree HEAD
git add -A
tree=$(git write-tree)
git commit-tree "$tree" -p HEAD -m "switchyard: work in progress"
git symbolic-ref -q HEAD || echo
git rev-parse HEAD
rm -rf "$dir"`;

type StepCtx = Ctx;

async function wipCommit(ctx: StepCtx, ws: Workspace) {
  const got = await runOnCheckout(ctx.config, ws, ['sh', '-c', WIP_SCRIPT], {
    writable: true,
    timeoutMs: 120_000,
    network: 'none',
    env: localGitEnv('switchyard'),
  });
  if (!got.ok) throw new GitError(got.refusal);
  const [sha = '', headRef = '', head = ''] = got.result.stdout.split('\n').map((l) => l.trim());
  if (got.result.exitCode !== 0 || !/^[0-9a-f]{40}$/.test(head))
    throw new GitError(`the work-in-progress commit failed: ${got.result.output.trim().slice(-400)}`);
  return { sha, headRef, head };
}

/** The mirror's work-in-progress ref as a bundle, without what the base commit already has. */
async function bundleOf(ctx: StepCtx, ws: Workspace, ticketId: string): Promise<Buffer> {
  const { tmp } = mirrorRoot(ctx);
  await mkdir(tmp, { recursive: true });
  const file = join(tmp, `step-${randomUUID().slice(0, 8)}.bundle`);
  try {
    const not = ws.baseSha ? [`^${ws.baseSha}`] : [];
    await mirrorLocal(ctx, ws.repo, ['bundle', 'create', '-q', file, wipRef(ticketId), ...not]);
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
 * Records the checkout's state after a tool call that may have changed it (issue 19 "workspaces
 * follow their turn"): its work-in-progress commit is imported into the host's mirror like a
 * commit being pushed (fsck, no checkout config), bundled with the commits the base lacks
 * (unpushed ones included) and stored with the call's key, so a worker resuming the turn restores
 * exactly this state. Failures are logged, never the tool's: the step itself happened.
 */
export async function recordWorkspaceStep(ctx: StepCtx, ticketId: string, step: string): Promise<void> {
  try {
    const ws = await localWorkspace(ctx, ticketId);
    if (!ws) return;
    const wip = await wipCommit(ctx, ws);
    await importCommit(ctx, ws.repo, ws.dir, ticketId, wip.sha, wipRef(ticketId));
    const bundle = await bundleOf(ctx, ws, ticketId);
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
      { id, step, head: wip.head, headRef: wip.headRef, at: ctx.now() },
      bundle,
    );
    await writeStepMarker(ctx, ticketId, id);
  } catch (err) {
    ctx.log.warn({ ticketId, step, err }, 'workspace step not recorded');
  }
}
