import type { Ctx } from '../context.ts';
import { withTraceContext } from '../tracing/job-context.ts';
import { nextStatusSeq } from './status-message.ts';
import { claimStatusDirty } from './sync-flags.ts';

type ScheduleCtx = Pick<Ctx, 'redis' | 'keys' | 'queues'>;

/** How long a first change waits for more before the status message is re-rendered. */
export const STATUS_COALESCE_MS = 100;

/**
 * Marks a ticket's status dirty (issue 9). Only the first change since the last sync started
 * queues a job; later ones ride on it, because the sync renders the state as it is when it runs.
 * Job ids carry a counter (no `:`), so a sync may queue the next one while it still runs.
 */
export async function markStatusDirty(
  ctx: ScheduleCtx,
  ticketId: string,
  delayMs = STATUS_COALESCE_MS,
): Promise<void> {
  if (!(await claimStatusDirty(ctx, ticketId))) return;
  const n = await nextStatusSeq(ctx, ticketId, 'jobs');
  await ctx.queues.status.add('sync', withTraceContext({ ticketId }), {
    jobId: `status-${ticketId}-${n}`,
    delay: Math.max(0, Math.ceil(delayMs)),
    attempts: 5,
    backoff: { type: 'exponential', delay: 500 },
    removeOnComplete: true,
    removeOnFail: { count: 1000 },
  });
}
