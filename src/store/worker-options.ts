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

/** How long a close waits for a worker's connections to come back (ioredis retries every ≤ 2 s). */
export const RECONNECT_GRACE_MS = 5000;

/**
 * Closes a worker made with `workerOptions`, then its own connection: BullMQ treats a connection
 * it was given as shared and never closes it, and once closed it stops listening for the
 * connection's errors — left open, it reconnects forever and prints each failure raw to stderr.
 *
 * A graceful close (active jobs finish) needs the worker's connections up: BullMQ ends its
 * blocking connection by disconnecting it and waiting for `end`, which ioredis never emits for a
 * connection disconnected while it waits to reconnect (redis/ioredis#1247), and QUITs the other
 * through the offline queue. A close while Redis was away — right after a Sentinel fail-over, as
 * in `sentinel-flows` — waited for ever. So it first waits up to `RECONNECT_GRACE_MS` for both to
 * be ready; a Redis still away then gets a forced close: the active jobs stay active and the
 * stalled check hands them to a worker after `JOB_LOCK_MS`, as after a crash.
 */
export async function closeWorker(worker: Worker, graceMs = RECONNECT_GRACE_MS): Promise<void> {
  const up = await connectionsReady(worker, graceMs);
  await worker.close(!up);
  const own = worker.opts.connection;
  if (own && 'disconnect' in own && typeof own.disconnect === 'function') own.disconnect();
}

type Client = Awaited<ReturnType<Worker['waitUntilReady']>>;

/** Whether the worker's blocking and command connections are both ready within `ms`. */
async function connectionsReady(worker: Worker, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const ready = (client: Client) =>
    client.status === 'ready'
      ? true
      : new Promise<true>((resolve) => client.once('ready', () => resolve(true)));
  try {
    return await Promise.race([
      late,
      Promise.all([worker.waitUntilReady().then(ready), worker.client.then(ready)]).then(() => true),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
