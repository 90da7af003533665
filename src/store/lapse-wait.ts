import { DelayedError, type Job } from 'bullmq';
import type { Ctx } from '../context.ts';

/** Past the lock's own expiry, so the job's next try finds it gone. */
const MARGIN_MS = 100;

/**
 * A turn's job that found its lock held by another job (issue 46 item 2). With one job per
 * ticket queued at a time (`addQueuedJob`) that is only a holder BullMQ already gave up on — its
 * job failed for good while its worker was frozen or dead — so this job waits, once, until the
 * holder's lock lapses (or is released), instead of asking again and again.
 */
export async function waitForLapse(
  ctx: Pick<Ctx, 'redis'>,
  lockKey: string,
  job: Job,
  token: string | undefined,
): Promise<never> {
  const left = await ctx.redis.pttl(lockKey);
  await job.moveToDelayed(Date.now() + Math.max(left, 0) + MARGIN_MS, token);
  throw new DelayedError();
}
