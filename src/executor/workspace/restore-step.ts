import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Ctx } from '../../context.ts';
import { mirrorRoot } from './mirror.ts';
import { wipRef } from './record-step.ts';
import { GitError } from './run-git.ts';
import { stepRepoGit } from './step-repo.ts';
import type { WorkspaceStep } from './workspace-step-record.ts';

/** A recorded step to restore a new checkout to (issue 19). */
export interface StepToRestore {
  ticketId: string;
  step: WorkspaceStep;
  bundle: Buffer;
}

/**
 * Brings a recorded step's bundle into a step repository (`withStepRepo`: the mirror's objects
 * borrowed, deleted afterwards, issue 45) as the ticket's work-in-progress ref, every object
 * checked (fsck): the bundle holds repository-controlled content, and whoever can write Redis
 * could have made it.
 */
export async function stepIntoRepo(ctx: Pick<Ctx, 'config' | 'keys'>, stepRepo: string, s: StepToRestore) {
  const file = join(mirrorRoot(ctx).tmp, `restore-${randomUUID().slice(0, 8)}.bundle`);
  try {
    await writeFile(file, s.bundle);
    const ref = wipRef(s.ticketId);
    await stepRepoGit(
      ctx,
      stepRepo,
      ['fetch', '-q', '--no-tags', '--no-write-fetch-head', file, `+${ref}:${ref}`],
      [['fetch.fsckObjects', 'true']],
    );
  } finally {
    await rm(file, { force: true });
  }
}

const BRANCH = /^refs\/heads\/([\w][\w./-]*)$/;

/**
 * Puts a fresh checkout (still beside its target, made by the host from the mirror) at the
 * recorded step: HEAD at the recorded commit on the recorded branch, the working tree exactly the
 * work-in-progress tree, the index at HEAD — so changes made but not committed stay uncommitted
 * (new files untracked, edits and deletions unstaged).
 */
export async function applyStep(
  run: (args: string[]) => Promise<string>,
  stepRepo: string,
  s: StepToRestore,
): Promise<void> {
  await run([
    'fetch',
    '-q',
    '--no-tags',
    '--no-write-fetch-head',
    stepRepo,
    `+${wipRef(s.ticketId)}:refs/sy/wip`,
  ]);
  const parent = await run(['rev-parse', '--verify', 'refs/sy/wip^1']);
  if (parent !== s.step.head) throw new GitError('refused: the recorded step’s commit is not on its HEAD');
  const branch = BRANCH.exec(s.step.headRef)?.[1];
  if (branch && !branch.includes('..')) await run(['checkout', '-q', '-B', branch, s.step.head]);
  else await run(['checkout', '-q', '--detach', s.step.head]);
  await run(['read-tree', '-u', '--reset', 'refs/sy/wip']);
  await run(['reset', '-q']);
  await run(['update-ref', '-d', 'refs/sy/wip']);
}
