import type { EvalRecord } from './eval-record.ts';
import type { Arm } from './prompt-arms.ts';
import type { EvalTask } from './task.ts';
import type { TaskRecord } from './task-record.ts';

/**
 * An A/B run's task list (issue 29, `--prompts`): each task once per arm, interleaved — task A
 * under the published prompts, task A under the candidate, task B … — so both arms meet the same
 * load and the same moment. Each entry carries its arm, and an id of its own (`<task>__<arm>`) so
 * the runner gives it a key prefix, a trajectory file and a recording of its own; the world is
 * built from the task itself, so the arms' products differ in their prompt settings only.
 */

const MARK = '__';

interface ArmTask extends EvalTask {
  arm: Arm;
  base: EvalTask;
}

export function armTasks(tasks: EvalTask[], arms: Arm[]): EvalTask[] {
  return tasks.flatMap((t) =>
    arms.map((arm): ArmTask => ({ ...t, id: `${t.id}${MARK}${arm.label}`, arm, base: t })),
  );
}

/** The task to build the world from, and its arm in an A/B run. */
export function armOf(task: EvalTask): { task: EvalTask; arm?: Arm } {
  if (!('arm' in task && 'base' in task)) return { task };
  const t = task as ArmTask;
  return { task: t.base, arm: t.arm };
}

/** A record of an A/B run under its task's own id, with its arm. */
export function splitArm(r: TaskRecord, arms: Arm[]): EvalRecord {
  const arm = arms.find((a) => r.id.endsWith(`${MARK}${a.label}`));
  return arm ? { ...r, id: r.id.slice(0, -`${MARK}${arm.label}`.length), arm: arm.label } : r;
}
