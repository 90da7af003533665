import { z } from 'zod';
import type { Ctx } from '../context.ts';
import * as lease from '../store/lease.ts';
import { encodeRecord, readRecord } from '../store/parse-record.ts';

type StoreCtx = Pick<Ctx, 'redis' | 'keys'> & Partial<Pick<Ctx, 'log'>>;

/** The panel's A/B eval run as every web process reads it (issue 29). */
export const AbRunState = z.object({
  id: z.string(),
  state: z.enum(['running', 'finished', 'failed']),
  /** What was evaluated: `r12`, or `draft`. */
  candidate: z.string(),
  oracle: z.boolean(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  exitCode: z.number().nullable(),
  /** The results folder's name under EVAL_RESULTS_DIR, once the run printed it. */
  run: z.string().nullable(),
  /** The last lines of the run's output. */
  lines: z.array(z.string()),
});
export type AbRunState = z.infer<typeof AbRunState>;

/**
 * Owner of `keys.evalAbLease` and `keys.evalAbRun`: one A/B run at a time across web processes
 * (a lease, `src/store/lease.ts`, renewed while the child runs, gone by itself if its process dies),
 * and the last run's state.
 */
export async function takeAbLease(ctx: StoreCtx, holder: string, ttlMs: number): Promise<boolean> {
  return lease.takeLease(ctx.redis, ctx.keys.evalAbLease(), holder, ttlMs);
}

export async function renewAbLease(ctx: StoreCtx, holder: string, ttlMs: number): Promise<boolean> {
  return lease.renewLease(ctx.redis, ctx.keys.evalAbLease(), holder, ttlMs);
}

export async function releaseAbLease(ctx: StoreCtx, holder: string): Promise<void> {
  await lease.releaseLease(ctx.redis, ctx.keys.evalAbLease(), holder);
}

/**
 * The last run as it stands: a run stored as running whose lease nobody holds (its web process
 * died) will never finish, and is answered as failed, saying so.
 */
export async function currentAbRun(ctx: StoreCtx): Promise<AbRunState | null> {
  const run = await readAbRun(ctx);
  if (run?.state !== 'running' || (await ctx.redis.exists(ctx.keys.evalAbLease())) === 1) return run;
  return { ...run, state: 'failed', lines: [...run.lines, 'the web process running it stopped'] };
}

export async function writeAbRun(ctx: StoreCtx, state: AbRunState): Promise<void> {
  const key = ctx.keys.evalAbRun();
  await ctx.redis.set(key, encodeRecord(ctx, AbRunState, state, key));
}

/** The last run's state, or null before any (or when the stored one does not read, logged). */
async function readAbRun(ctx: StoreCtx): Promise<AbRunState | null> {
  const key = ctx.keys.evalAbRun();
  const raw = await ctx.redis.get(key);
  if (raw === null) return null;
  const read = readRecord(ctx, AbRunState, raw, key);
  return read.ok ? read.value : null;
}
