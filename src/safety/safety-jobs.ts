import { Worker } from 'bullmq';
import type { Ctx } from '../context.ts';
import { createQueue, QUEUE_NAMES } from '../store/queues.ts';
import { storeErrorListener } from '../store/redis-down.ts';
import { closeWorker, workerOptions } from '../store/worker-options.ts';
import { releaseBudgetHolds } from './budget-release.ts';
import { redeliverMissed } from './redeliver-missed.ts';
import { sweepRetention } from './retention-sweep.ts';
import { watchStalls } from './watch-stalls.ts';

/** The safety queue's jobs: the watchdog, the retention sweep and, in GitHub App mode, the missed-delivery sweep. */
export const SAFETY_QUEUE = QUEUE_NAMES.safety;

function appMode(ctx: Ctx): boolean {
  return ctx.config.githubEnabled && Boolean(ctx.config.GITHUB_APP_ID);
}

/**
 * Starts the repeatable safety jobs (issue 8) and their worker. Job schedulers are upserted by a
 * fixed id, so any number of worker processes share one schedule and BullMQ runs each tick once.
 * The missed-delivery sweep also runs at every start-up: deliveries that failed while the bot was
 * down are asked for as soon as it is back. Sweeps may overlap; each delivery is claimed once.
 */
export async function startSafetyJobs(ctx: Ctx): Promise<{ stop: () => Promise<void> }> {
  const queue = createQueue(ctx, SAFETY_QUEUE);
  const keep = { removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } };
  await queue.upsertJobScheduler(
    'watchdog',
    { every: ctx.config.WATCHDOG_INTERVAL_MS },
    { name: 'watchdog', opts: keep },
  );
  await queue.upsertJobScheduler(
    'retention',
    { every: ctx.config.RETENTION_SWEEP_MS },
    { name: 'retention', opts: keep },
  );
  // Issue 33 item 5: tickets paused for budget go on once it is raised or the day turns.
  await queue.upsertJobScheduler(
    'budget',
    { every: ctx.config.BUDGET_CHECK_MS },
    { name: 'budget', opts: keep },
  );
  if (appMode(ctx)) {
    await queue.upsertJobScheduler(
      'redeliver',
      { every: ctx.config.REDELIVERY_INTERVAL_MS },
      { name: 'redeliver', opts: keep },
    );
    // An existing scheduler keeps its next time across restarts: sweep at this start-up too.
    await queue.add('redeliver', {}, keep);
  }
  const worker = new Worker(
    SAFETY_QUEUE,
    async (job) =>
      job.name === 'redeliver'
        ? redeliverMissed(ctx)
        : job.name === 'retention'
          ? sweepRetention(ctx)
          : job.name === 'budget'
            ? releaseBudgetHolds(ctx)
            : watchStalls(ctx),
    workerOptions(ctx, 1),
  );
  worker.on('failed', (job, err) => ctx.log.warn({ err, job: job?.name }, 'safety job failed'));
  // A lost Redis connection is logged like everywhere else, not printed raw to stderr.
  worker.on('error', storeErrorListener(ctx.log, ctx.config.REDIS_URL, 'safety worker'));
  queue.on('error', storeErrorListener(ctx.log, ctx.config.REDIS_URL, 'safety queue'));
  // The worker makes its scheduler connection on its first scheduled job: made (and its start-up
  // INFO answered) here instead, a stop right after start cannot cut it off mid-reply, an unhandled
  // "Connection is closed" (seen with one app per test, issue 20).
  await (await worker.jobScheduler).waitUntilReady();
  return {
    stop: async () => {
      await closeWorker(worker);
      await queue.close();
    },
  };
}
