import { DelayedError, type Job } from 'bullmq';
import type { Ctx } from '../context.ts';

/** Past the lock's own expiry, so the job's next try finds it gone. */
const MARGIN_MS = 100;

/**
 * A turn's job that found its lock held by another job (issue 46 item 2). With one job per
 * ticket queued at a time (`addQueuedJob`) that is only a holder BullMQ already gave up on — its
 * job failed for good while its worker was frozen or dead — or, while a deployment upgrades, a job
 * queued by a release without the deduplication. This job waits until the holder's lock lapses,
 * or `JOB_LOCK_MS` at most (a live holder renews it and may end sooner), instead of asking every
 * 500 ms.
 */
export async function waitForLapse(
  ctx: Pick<Ctx, 'redis' | 'config'>,
  lockKey: string,
  job: Job,
  token: string | undefined,
): Promise<never> {
  const left = Math.min(Math.max(await ctx.redis.pttl(lockKey), 0), ctx.config.JOB_LOCK_MS);
  await job.moveToDelayed(Date.now() + left + MARGIN_MS, token);
  throw new DelayedError();
}
