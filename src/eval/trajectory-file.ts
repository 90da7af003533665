import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ShownStep } from '../web/api/ticket-trajectory.ts';
import type { TaskRecord } from './task-record.ts';

/**
 * A task run's trajectory kept with the run's results (issue 29): every step of the ticket's
 * sessions as the panel shows them, read before the task's product and its keys are gone, in
 * `<run folder>/trajectories/<task>-<run>.json`. `results.json` stays the index: its record names
 * the file (`trajectory`), and the panel's Eval page opens it from there.
 */

export const TRAJECTORIES = 'trajectories';

export interface TrajectoryFile {
  task: string;
  run: number;
  /** The ticket the request opened (the record's `ticket`). */
  ticket: string | null;
  steps: ShownStep[];
}

/** The file's name within the run folder; a task id with other characters is made safe for a path. */
function trajectoryName(task: string, run: number): string {
  return `${TRAJECTORIES}/${task.replace(/[^A-Za-z0-9._-]/g, '_')}-${run}.json`;
}

/**
 * Writes the steps a record carries (`steps`, read by `observe`) into `folder` and answers the
 * record without them, naming the file; without a folder or steps (a task that could not run)
 * the record goes on without a trajectory.
 */
export function keepTrajectory(r: TaskRecord, folder: string | undefined): TaskRecord {
  const { steps, ...record } = r;
  if (!folder || !steps) return record;
  const name = trajectoryName(r.id, r.run);
  mkdirSync(join(folder, TRAJECTORIES), { recursive: true });
  const file: TrajectoryFile = { task: r.id, run: r.run, ticket: r.ticket, steps };
  writeFileSync(join(folder, name), `${JSON.stringify(file)}\n`);
  return { ...record, trajectory: name };
}
