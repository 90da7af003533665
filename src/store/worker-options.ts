import { hostname } from 'node:os';
import type { Worker, WorkerOptions } from 'bullmq';
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

/**
 * Closes a worker made with `workerOptions`, then its own connection: BullMQ treats a connection
 * it was given as shared and never closes it, and once closed it stops listening for the
 * connection's errors — left open, it reconnects forever and prints each failure raw to stderr.
 */
export async function closeWorker(worker: Worker): Promise<void> {
  await worker.close();
  const own = worker.opts.connection;
  if (own && 'disconnect' in own && typeof own.disconnect === 'function') own.disconnect();
}
