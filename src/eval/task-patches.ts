import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { type EvalTask, readIfFile } from './task.ts';

/** A patch a task ships besides solution.patch: its file name and text. */
export interface NamedPatch {
  name: string;
  text: string;
}

const ALTERNATIVE = /^solution-alt[\w.-]*\.patch$/;

/**
 * Other correct fixes (issue 47 item 6): `solution-alt*.patch`, each a different change that must
 * pass the hidden tests as solution.patch does (`--validate` checks both), so a check that accepts
 * only the reference's way of fixing is caught. The oracle applies solution.patch only.
 */
export function alternativePatches(task: Pick<EvalTask, 'dir'>): NamedPatch[] {
  return readdirSync(task.dir)
    .filter((f) => ALTERNATIVE.test(f))
    .sort()
    .map((name) => ({ name, text: readIfFile(join(task.dir, name)) }));
}

/**
 * The parts of solution.patch that answer the review-thread follow-ups (issue 47 item 5), in the
 * follow-ups' order: solution.patch less these (reversed, last first) is what the bot pushes
 * before the review.
 */
export function reviewPatches(task: Pick<EvalTask, 'dir' | 'followups'>): NamedPatch[] {
  return task.followups.flatMap((f) =>
    f.review ? [{ name: f.review.patch, text: readIfFile(join(task.dir, f.review.patch)) }] : [],
  );
}
