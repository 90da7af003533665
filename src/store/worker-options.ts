import { hostname } from 'node:os';
import type { Worker, WorkerOptions } from 'bullmq';
import type { Ctx } from '../context.ts';

/**
 * Options every BullMQ worker of the product shares: the process's connection for its commands
 * (BullMQ blocks for jobs on a duplicate of its own, one per worker), the deployment's queue prefix,
 * and the lock that decides how soon a job whose worker died is picked up by another
 * (`JOB_LOCK_MS`). Issue 32: a second duplicate per worker for the non-blocking commands made each
 * process open 14 connections rather than 8 (each one a ready check, BullMQ's version check and
 * its scripts defined and hashed).
 */
export function workerOptions(ctx: Ctx, concurrency: number): WorkerOptions {
  return {
    // Recorded on each job it runs (`processedBy`): which process did what, when many share a queue.
    name: `${hostname()}:${process.pid}`,
    connection: ctx.redis,
    prefix: ctx.keys.queuePrefix,
    concurrency,
    lockDuration: ctx.config.JOB_LOCK_MS,
    stalledInterval: ctx.config.JOB_LOCK_MS,
  };
}

/**
 * Closes a worker made with `workerOptions`: its blocking connection with it. The shared
 * connection stays for the rest of the process and is closed with the context (`closeContext`).
 * The worker's start-up on the shared connection (BullMQ's version check) is waited for first:
 * closed while it is under way, BullMQ drops the worker's error listeners, and the check then
 * fails when the context closes the connection — an 'error' with no listener, which ends the
 * process.
 */
export async function closeWorker(worker: Worker): Promise<void> {
  await worker.waitUntilReady().catch(() => undefined);
  await worker.close();
}
