import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { releaseLease, renewLease, takeLease } from '../lease.ts';
import { MIGRATIONS } from './index.ts';
import type { Migration, MigrationCtx } from './migration.ts';
import { StoreSchemaError } from './migration-errors.ts';

const Version = z
  .string()
  .regex(/^\d{1,9}$/)
  .transform(Number);

/** Sets the version only while the lock is still ours, so a step that outlived its lock stops there. */
const SET_VERSION = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[2]) return 1`;

export interface MigrateOptions {
  /** The lock's time to live; renewed every third of it while steps run. */
  lockMs?: number;
  /** How long a process waits for another one's migration before giving up. */
  waitMs?: number;
  /** Poll interval while another process migrates. */
  pollMs?: number;
}

export interface MigrateOutcome {
  from: number;
  to: number;
  /** Versions this process applied (empty when the store was current or another process did it). */
  applied: number[];
}

/**
 * Issue 20: brings the stored data to this release's schema, once, at start-up. Several processes
 * may start together: one takes the lock and runs the missing steps in order, stamping the
 * version after each (a crash resumes at the next start); the others wait until the version is
 * current. A store newer than this release is refused rather than misread.
 */
export async function migrateStore(
  ctx: MigrationCtx,
  steps: readonly Migration[] = MIGRATIONS,
  opts: MigrateOptions = {},
): Promise<MigrateOutcome> {
  checkSteps(steps);
  const { lockMs = 30_000, waitMs = 120_000, pollMs = 100 } = opts;
  const target = steps.at(-1)?.version ?? 0;
  const from = await readVersion(ctx);
  const deadline = Date.now() + waitMs;
  for (let current = from; ; current = await readVersion(ctx)) {
    if (current > target)
      throw new StoreSchemaError(
        'store_too_new',
        `the stored data is at schema version ${current}, newer than this release's ${target}: run a newer release`,
      );
    if (current === target) return { from, to: current, applied: [] };
    const token = randomUUID();
    if (await takeLease(ctx.redis, ctx.keys.schemaLock(), token, lockMs)) {
      const applied = await runLocked(ctx, steps, token, lockMs);
      return { from, to: target, applied };
    }
    if (Date.now() > deadline)
      throw new StoreSchemaError(
        'migration_timeout',
        `another process has been migrating the stored data for over ${waitMs} ms`,
      );
    await sleep(pollMs);
  }
}

/** Runs the missing steps while holding the lock; re-reads the version first (it may have moved). */
async function runLocked(
  ctx: MigrationCtx,
  steps: readonly Migration[],
  token: string,
  lockMs: number,
): Promise<number[]> {
  const lock = ctx.keys.schemaLock();
  const renew = setInterval(() => {
    renewLease(ctx.redis, lock, token, lockMs).catch(() => {});
  }, lockMs / 3);
  const applied: number[] = [];
  try {
    const current = await readVersion(ctx);
    for (const step of steps.filter((s) => s.version > current)) {
      ctx.log.info({ version: step.version, step: step.name }, 'migrating stored data');
      await step.up(ctx);
      const ok = await ctx.redis.eval(SET_VERSION, 2, lock, ctx.keys.schemaVersion(), token, step.version);
      if (ok !== 1)
        throw new StoreSchemaError(
          'migration_lock_lost',
          `the migration lock expired during step ${step.version} (${step.name}); restart to resume`,
        );
      applied.push(step.version);
    }
    return applied;
  } finally {
    clearInterval(renew);
    await releaseLease(ctx.redis, lock, token);
  }
}

async function readVersion(ctx: MigrationCtx): Promise<number> {
  const raw = await ctx.redis.get(ctx.keys.schemaVersion());
  if (raw === null) return 0;
  const v = Version.safeParse(raw);
  if (!v.success)
    throw new StoreSchemaError('bad_version', `the schema version key holds ${JSON.stringify(raw)}`);
  return v.data;
}

/** A programming error, caught by every start-up and test: versions must be 1, 2, 3, … */
function checkSteps(steps: readonly Migration[]): void {
  steps.forEach((s, i) => {
    if (s.version !== i + 1)
      throw new Error(`migration ${s.name} has version ${s.version}, expected ${i + 1}`);
  });
}
