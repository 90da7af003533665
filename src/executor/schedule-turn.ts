import type { Ctx } from '../context.ts';
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
  const set = await ctx.redis.set(ctx.keys.turnScheduled(ticketId), '1', 'EX', 3600, 'NX');
  if (set !== 'OK') return false;
  const n = await ctx.redis.incr(ctx.keys.turnSeq(ticketId));
  await ctx.queues.executor.add('turn', withTraceContext({ ticketId }), {
    jobId: `turn-${ticketId}-${n}`,
    delay: delayMs,
    attempts: 5,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: { age: 24 * 3600 },
    removeOnFail: false,
  });
  return true;
}

/** A turn started: the next card queues the turn after it (the owner of `turnScheduled`). */
export async function clearTurnScheduled(ctx: ScheduleCtx, ticketId: string): Promise<void> {
  await ctx.redis.del(ctx.keys.turnScheduled(ticketId));
}
