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
  const flag = ctx.keys.turnScheduled(ticketId);
  if ((await ctx.redis.set(flag, '1', 'EX', 3600, 'NX')) !== 'OK') return false;
  try {
    const n = await ctx.redis.incr(ctx.keys.turnSeq(ticketId));
    await ctx.queues.executor.add('turn', withTraceContext({ ticketId }), {
      jobId: `turn-${ticketId}-${n}`,
      delay: delayMs,
      attempts: 5,
      backoff: { type: 'exponential', delay: 1000 },
      removeOnComplete: { age: 24 * 3600 },
      removeOnFail: false,
    });
  } catch (err) {
    // No job behind the flag: it goes, or every wake-up for the next hour would be refused.
    await ctx.redis.del(flag).catch(() => undefined);
    throw err;
  }
  return true;
}

/**
 * Start-up recovery: a flag a process left when it died between setting it and queueing the job
 * names a turn that does not exist (`turn-<ticket>-<seq>`); it goes, so the sweep can queue one.
 */
export async function dropOrphanTurnFlag(ctx: ScheduleCtx & Pick<Ctx, 'queues'>, ticketId: string) {
  const flag = ctx.keys.turnScheduled(ticketId);
  if (!(await ctx.redis.exists(flag))) return;
  const n = await ctx.redis.get(ctx.keys.turnSeq(ticketId));
  if (!n || !(await ctx.queues.executor.getJob(`turn-${ticketId}-${n}`))) await ctx.redis.del(flag);
}

/** A turn started: the next card queues the turn after it (the owner of `turnScheduled`). */
export async function clearTurnScheduled(ctx: ScheduleCtx, ticketId: string): Promise<void> {
  await ctx.redis.del(ctx.keys.turnScheduled(ticketId));
}
