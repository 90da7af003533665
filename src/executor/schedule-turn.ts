import type { Ctx } from '../context.ts';
import { addQueuedJob } from '../store/queued-job.ts';
import { withTraceContext } from '../tracing/job-context.ts';

/**
 * Queues an executor turn for a ticket (`addQueuedJob`): nothing when one waits (it takes the
 * inbox when it starts); when one runs, the next is queued the moment it finishes — so no wake-up
 * is lost, turns never pile up, and no second turn of a ticket waits on the lock meanwhile. True
 * when a turn was queued now.
 */
export async function scheduleTurn(
  ctx: Pick<Ctx, 'redis' | 'keys' | 'queues'>,
  ticketId: string,
  delayMs = 0,
): Promise<boolean> {
  return addQueuedJob(ctx.redis, {
    seq: ctx.keys.turnSeq(ticketId),
    queue: ctx.queues.executor,
    idPrefix: `turn-${ticketId}`,
    dedupId: `turn:${ticketId}`,
    name: 'turn',
    data: withTraceContext({ ticketId }),
    opts: {
      delay: delayMs,
      attempts: 5,
      backoff: { type: 'exponential', delay: 1000 },
      removeOnComplete: { age: 24 * 3600 },
      removeOnFail: false,
    },
  });
}
