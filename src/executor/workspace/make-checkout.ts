import { randomUUID } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import type { Ctx } from '../../context.ts';
import { commandOwner } from '../sandbox/probe-sandbox.ts';
import { giveToSandbox, ownCheckout } from '../sandbox/sandbox-user.ts';
import { ensureMirror, fetchIntoMirror, localHostEnv, mirrorLocal, remoteSha } from './mirror.ts';
import { mkdirPrivate } from './private-dir.ts';
import { applyStep, type StepToRestore, stepIntoRepo } from './restore-step.ts';
import { git } from './run-git.ts';
import { withStepRepo } from './step-repo.ts';
import type { Workspace } from './workspace.ts';

/**
 * Makes the ticket's checkout from the host's mirror (issue 13): the mirror fetches the default
 * branch, the ticket's branch when it was pushed already (a later turn on another machine) and
 * the heads of the ticket's PRs; the checkout is then filled from the mirror by a local fetch in
 * a fresh repository, so no network git and no token ever touch it. Built beside the target and
 * renamed, so a crash never leaves a half checkout that looks whole. With `restore`, the new
 * checkout is put at a step another worker recorded (issue 19) before it takes the ticket's place.
 * Returns the base commit.
 */
export async function makeCheckout(
  ctx: Ctx,
  ws: Workspace,
  login: string,
  pulls: readonly number[] = [],
  restore?: StepToRestore,
): Promise<string> {
  const pushed = await remoteSha(ctx, ws, `refs/heads/${ws.branch}`);
  const specs = [`+refs/heads/${ws.base}:refs/heads/${ws.base}`];
  if (pushed) specs.push(`+refs/heads/${ws.branch}:refs/heads/${ws.branch}`);
  await fetchIntoMirror(ctx, ws, specs);
  const got: number[] = [];
  for (const n of pulls) {
    // A PR's head, a fork's included, for reading; a missing one (closed, deleted) is skipped.
    const ok = await fetchIntoMirror(ctx, ws, [`+refs/pull/${n}/head:refs/pull/${n}/head`]).then(
      () => true,
      () => false,
    );
    if (ok) got.push(n);
  }
  const baseSha = await mirrorLocal(ctx, ws.repo, [
    'rev-parse',
    '--verify',
    `refs/heads/${ws.base}^{commit}`,
  ]);
  const mirror = await ensureMirror(ctx, ws.repo);
  const fill = { mirror, pushed: Boolean(pushed), pulls: got };
  if (!restore) await fillCheckout(ctx, ws, login, fill);
  else
    await withStepRepo(ctx, ws.repo, async (stepRepo) => {
      await stepIntoRepo(ctx, stepRepo, restore);
      await fillCheckout(ctx, ws, login, fill, { step: restore, stepRepo });
    });
  return baseSha;
}

/**
 * The checkout filled from the mirror by a local fetch in a fresh repository, at the recorded
 * step when one is given (its work-in-progress commit in `stepRepo`), then put in place.
 */
async function fillCheckout(
  ctx: Ctx,
  ws: Workspace,
  login: string,
  from: { mirror: string; pushed: boolean; pulls: readonly number[] },
  restore?: { step: StepToRestore; stepRepo: string },
): Promise<void> {
  const { mirror, pushed, pulls: got } = from;
  const tmp = `${ws.dir}.clone-${randomUUID().slice(0, 8)}`;
  await mkdirPrivate(tmp);
  try {
    const run = (args: string[]) => git(localHostEnv(ctx), tmp, args, 600_000);
    await run(['init', '-q']);
    // The URL only: the host never uses the checkout's remotes (it pushes from the mirror).
    await run(['remote', 'add', 'origin', ws.cloneUrl]);
    await run(['config', 'user.name', login]);
    await run(['config', 'user.email', `${login}@users.noreply.github.com`]);
    const local = [
      `+refs/heads/${ws.base}:refs/remotes/origin/${ws.base}`,
      ...(pushed ? [`+refs/heads/${ws.branch}:refs/remotes/origin/${ws.branch}`] : []),
      ...got.map((n) => `+refs/pull/${n}/head:refs/remotes/origin/pull/${n}`),
    ];
    await run(['fetch', '-q', '--no-tags', '--no-write-fetch-head', mirror, ...local]);
    await run(['checkout', '-q', '-B', ws.branch, `origin/${pushed ? ws.branch : ws.base}`]);
    if (restore) await applyStep(run, restore.stepRepo, restore.step);
    // Issue 45: where commands run as a uid of their own, the checkout is theirs, restored step included.
    const owner = await commandOwner(ctx.config);
    if (owner) await giveToSandbox(tmp, owner);
    await rm(ws.dir, { recursive: true, force: true });
    await rename(tmp, ws.dir);
    if (owner) await ownCheckout(ws.dir, owner, ctx.config.WORKSPACE_DIR);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
