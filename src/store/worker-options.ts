import { hostname } from 'node:os';
import type { WorkerOptions } from 'bullmq';
import type { Ctx } from '../context.ts';

/**
 * Options every BullMQ worker of the product shares: its own connection (workers block on it),
 * the deployment's queue prefix, and the lock that decides how soon a job whose worker died is
 * picked up by another (`JOB_LOCK_MS`).
 */
export function workerOptions(ctx: Ctx, concurrency: number): WorkerOptions {
  return {
    // Recorded on each job it runs (`processedBy`): which process did what, when many share a queue.
    name: `${hostname()}:${process.pid}`,
    connection: ctx.redis.duplicate(),
    prefix: ctx.keys.queuePrefix,
    concurrency,
    lockDuration: ctx.config.JOB_LOCK_MS,
    stalledInterval: ctx.config.JOB_LOCK_MS,
  };
}
