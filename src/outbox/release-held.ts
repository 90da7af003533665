import type { Ctx } from '../context.ts';
import { forgetHeld, heldJobIds } from './held.ts';

/**
 * A ticket was resumed (R-D2): every delivery its pause held goes out now, in the order the outbox
 * takes them, each once (its idempotency key and sent record still guard it). A job no longer
 * waiting (sent meanwhile, or already promoted) is left as it is. Safe to run again: a crash before
 * the ids are forgotten promotes nothing twice, and a job never promoted looks again by itself
 * after `HOLD_RECHECK_MS`.
 */
export async function releaseHeld(ctx: Pick<Ctx, 'redis' | 'keys' | 'queues' | 'log'>, ticketId: string) {
  const ids = await heldJobIds(ctx, ticketId);
  for (const id of ids) {
    const job = await ctx.queues.outbox.getJob(id);
    if (!job || !(await job.isDelayed())) continue;
    // Promoted by the job itself (it saw the resume) or by another release meanwhile: nothing to do.
    await job.promote().catch((err: unknown) => ctx.log.debug({ err, jobId: id }, 'held job not promoted'));
  }
  await forgetHeld(ctx, ticketId, ids);
}
