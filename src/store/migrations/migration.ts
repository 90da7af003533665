import type { Ctx } from '../../context.ts';

/** What a migration step is handed: the connection, key names, the settings, a logger and the clock. */
export type MigrationCtx = Pick<Ctx, 'redis' | 'keys' | 'config' | 'log' | 'now'>;

/**
 * One step of the stored data's schema (issue 20). Steps run once each, in `version` order, at
 * start-up, before any worker or webhook touches the data. `up` must be safe to run again on data
 * it already moved: a process that dies mid-step leaves the version unchanged and the next start
 * runs the step again.
 */
export interface Migration {
  /** 1, 2, 3, … with no gaps: the schema version the data has after this step. */
  version: number;
  /** What the step changes, for the log. */
  name: string;
  up(ctx: MigrationCtx): Promise<void>;
}
