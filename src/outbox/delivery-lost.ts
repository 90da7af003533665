import type { Ctx } from '../context.ts';
import { outboxJobId } from './enqueue.ts';
import { isSent } from './sent-records.ts';

/**
 * Whether a queued delivery is lost for good: not sent, and its job failed for good (a refusal,
 * attempts spent, a channel off) or was completed unsent (a pause dropped it before pauses held).
 * A job still waiting, held or retrying is not lost; neither is one the outbox no longer knows
 * (its record aged out: it may well have been sent long ago).
 */
export async function deliveryLost(
  ctx: Pick<Ctx, 'redis' | 'keys' | 'queues'>,
  key: string,
): Promise<boolean> {
  // Sent already: the common answer, in one read (the R-C2 gate asks before every work step).
  if (await isSent(ctx, key)) return false;
  const job = await ctx.queues.outbox.getJob(outboxJobId(key));
  if (!job) return false;
  const state = await job.getState();
  if (state !== 'failed' && state !== 'completed') return false;
  // Read again after the job's state: a delivery records its sending before its job completes,
  // so one that finished since the first read is seen sent. Without it, a delivery ending in
  // between looked unsent and completed, lost (R-C2 then refused work after an acknowledgement
  // whose reply was on its way).
  return !(await isSent(ctx, key));
}
