import { readdir, stat } from 'node:fs/promises';
import type { z } from 'zod';
import { mapAtMost } from './map-at-most.ts';
import { insideFolder, readFolderFile } from './results-folder-file.ts';
import { resultsFileSchema, type ShownRecord, type ShownResults } from './results-schema.ts';
import { trajectoryFileSchema } from './trajectory-schema.ts';

/**
 * The eval results folder as the panel's Eval page reads it (issue 29): one folder per run,
 * newest first, each with its `results.json` checked against its schema — a file that fails is
 * reported unreadable with the reason, a folder without one as unfinished (the run is under way,
 * or stopped) — and a task run's kept trajectory by the name its record gives.
 */

/** A run folder's name as `makeRunFolder` makes them: one name, never a path. */
export const RUN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const MAX_RUNS = 200;
/** Results files read at once when listing: each may be up to `RESULTS_CAP`, 200 of them 6 GiB. */
export const LIST_READS_AT_ONCE = 8;
const RESULTS_CAP = 32 * 2 ** 20;
const TRAJECTORY_CAP = 64 * 2 ** 20;

export type Read<T> =
  | { kind: 'ok'; value: T }
  | { kind: 'missing' }
  | { kind: 'unfinished' }
  | { kind: 'unreadable'; problem: string };

export type RunListing =
  | { run: string; state: 'ok'; meta: ShownResults['meta']; summary: ShownResults['summary'] }
  | { run: string; state: 'unfinished' }
  | { run: string; state: 'unreadable'; problem: string };

/** The runs under `root`, newest first (at most 200); `exists` false when there is no folder. */
export async function listRuns(root: string): Promise<{ exists: boolean; runs: RunListing[] }> {
  const entries = await readdir(root, { withFileTypes: true }).catch(() => undefined);
  if (!entries) return { exists: false, runs: [] };
  const names = entries
    .filter((e) => (e.isDirectory() || e.isSymbolicLink()) && RUN_NAME.test(e.name))
    .map((e) => e.name)
    .sort()
    .reverse()
    .slice(0, MAX_RUNS);
  const runs = await mapAtMost(names, LIST_READS_AT_ONCE, async (run) =>
    listing(run, await readRun(root, run)),
  );
  return { exists: true, runs: runs.filter((r) => r !== null) };
}

function listing(run: string, r: Read<ShownResults>): RunListing | null {
  if (r.kind === 'ok') return { run, state: 'ok', meta: r.value.meta, summary: r.value.summary };
  if (r.kind === 'unreadable') return { run, state: 'unreadable', problem: r.problem };
  return r.kind === 'unfinished' ? { run, state: 'unfinished' } : null;
}

/** One run's `results.json`, checked. */
export async function readRun(root: string, run: string): Promise<Read<ShownResults>> {
  if (!RUN_NAME.test(run)) return { kind: 'missing' };
  const file = await readFolderFile(root, `${run}/results.json`, RESULTS_CAP);
  if (file.kind === 'missing') {
    // The run's folder is there without its results: the run has not written them (yet).
    const folder = await insideFolder(root, run);
    const isDir = folder !== 'missing' && folder !== 'outside' && (await stat(folder)).isDirectory();
    return isDir ? { kind: 'unfinished' } : { kind: 'missing' };
  }
  if (file.kind === 'unreadable') return file;
  return parsed(file.text, resultsFileSchema, 'results.json');
}

/** A task run's record and its kept trajectory's steps. */
export async function readTrajectory(
  root: string,
  run: string,
  task: string,
  n: number,
  arm?: string,
): Promise<Read<{ record: ShownRecord; steps: z.infer<typeof trajectoryFileSchema>['steps'] }>> {
  const results = await readRun(root, run);
  if (results.kind !== 'ok') return results;
  // An A/B run holds each task run twice, once per arm: the arm names which.
  const record = results.value.records.find((r) => r.id === task && r.run === n && r.arm === arm);
  if (!record?.trajectory) return { kind: 'missing' };
  const file = await readFolderFile(root, `${run}/${record.trajectory}`, TRAJECTORY_CAP);
  if (file.kind !== 'ok') return file;
  const traj = parsed(file.text, trajectoryFileSchema, record.trajectory);
  return traj.kind === 'ok' ? { kind: 'ok', value: { record, steps: traj.value.steps } } : traj;
}

/** JSON text checked against `schema`; the first few problems, by field, when it fails. */
function parsed<T>(text: string, schema: z.ZodType<T>, name: string): Read<T> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: 'unreadable', problem: `${name} is not JSON` };
  }
  const r = schema.safeParse(json);
  if (r.success) return { kind: 'ok', value: r.data };
  const issues = r.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`);
  const more = r.error.issues.length > 3 ? ` (and ${r.error.issues.length - 3} more)` : '';
  return { kind: 'unreadable', problem: `${name} does not match its schema — ${issues.join('; ')}${more}` };
}
