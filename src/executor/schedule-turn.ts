import type { Ctx } from '../context.ts';
import { addFlaggedJob, dropOrphanFlag } from '../store/flagged-job.ts';
import { withTraceContext } from '../tracing/job-context.ts';

type ScheduleCtx = Pick<Ctx, 'redis' | 'keys'>;

/**
 * Queues an executor turn for a ticket unless one is already queued and not yet started. The
 * flag is cleared when a turn starts, so a card arriving during a running turn queues the next
 * one: no wake-up is lost and turns never pile up.
 */
export async function scheduleTurn(
  ctx: ScheduleCtx & Pick<Ctx, 'queues'>,
  ticketId: string,
  delayMs = 0,
): Promise<boolean> {
  return addFlaggedJob(ctx.redis, {
    ...turnJob(ctx, ticketId),
    flagSeconds: 3600,
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

/** A ticket's turn flag, counter and queue: turns are `turn-<ticket>-<seq>`. */
const turnJob = (ctx: ScheduleCtx & Pick<Ctx, 'queues'>, ticketId: string) => ({
  flag: ctx.keys.turnScheduled(ticketId),
  seq: ctx.keys.turnSeq(ticketId),
  queue: ctx.queues.executor,
  idPrefix: `turn-${ticketId}`,
});

/** Start-up recovery: a ticket's turn flag with no job behind it goes (see `dropOrphanFlag`). */
export const dropOrphanTurnFlag = (ctx: ScheduleCtx & Pick<Ctx, 'queues'>, ticketId: string) =>
  dropOrphanFlag(ctx.redis, turnJob(ctx, ticketId));

/** A turn started: the next card queues the turn after it (the owner of `turnScheduled`). */
export async function clearTurnScheduled(ctx: ScheduleCtx, ticketId: string): Promise<void> {
  await ctx.redis.del(ctx.keys.turnScheduled(ticketId));
}
