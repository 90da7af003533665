import type { TaskRecord } from './task-record.ts';

/** A record of `results.json`: in an A/B run, with the arm it ran under. */
export type EvalRecord = TaskRecord & { arm?: 'published' | 'candidate' };
