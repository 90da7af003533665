import type { Worker } from 'bullmq';
import { startIntakePump } from './cards/intake-pump.ts';
import { createSenders } from './channels/senders.ts';
import type { Ctx } from './context.ts';
import { startExecutorWorker } from './executor/executor-worker.ts';
import { startCheckoutSweep } from './executor/workspace/start-checkout-sweep.ts';
import { startOutboxWorker } from './outbox/worker.ts';
import { startMainWorker } from './router/main/main-worker.ts';
import { recoverWaitingWork } from './router/recover.ts';
import { startRouteWorker } from './router/route-worker.ts';
import { createRuntime, type Runtime } from './runtime.ts';
import { startSafetyJobs } from './safety/safety-jobs.ts';
import { startStatusWorker } from './status/status-worker.ts';
import { storeErrorListener } from './store/redis-down.ts';
import { closeWorker } from './store/worker-options.ts';

/**
 * Starts every BullMQ worker of a `worker` (or `all`) process. Any number of such processes share
 * the queues; BullMQ hands each job to one of them.
 */
export async function startWorkers(
  ctx: Ctx,
  runtime?: Runtime,
): Promise<{ workers: Worker[]; stop: () => Promise<void> }> {
  const rt = runtime ?? (await createRuntime(ctx));
  const senders = await createSenders(ctx);
  const workers: Worker[] = [
    startOutboxWorker(ctx, senders, ctx.config.OUTBOX_CONCURRENCY),
    startStatusWorker(ctx),
    startRouteWorker(ctx, ctx.config.ROUTE_CONCURRENCY),
    startMainWorker(rt),
    startExecutorWorker(rt, ctx.config.EXECUTOR_CONCURRENCY),
  ];
  // A lost Redis connection is reported by every worker; unheard, BullMQ prints it outside the log.
  for (const w of workers)
    if (!w.listenerCount('error'))
      w.on('error', storeErrorListener(ctx.log, ctx.config.REDIS_URL, `worker ${w.name}`));
  await recoverWaitingWork(ctx);
  // Issue 8: the watchdog and the missed-delivery sweep.
  const safety = await startSafetyJobs(ctx);
  // Issue 19: each worker's disk is its own, so each sweeps its own checkouts.
  const sweep = startCheckoutSweep(ctx);
  // Issue 18: webhook cards answered first get their routing job and seen reaction here.
  const intake = startIntakePump(ctx);
  return {
    workers,
    // Worker.close() waits for active jobs to finish; an unfinished one is picked up elsewhere.
    stop: async () => {
      // Running turns stop at their next step (or now, mid model request) and go back to the queue.
      rt.shutdown.abort();
      await Promise.all([...workers.map((w) => closeWorker(w)), safety.stop(), sweep.stop(), intake.stop()]);
    },
  };
}
