import type { Ctx } from '../context.ts';

/**
 * Queues an executor turn for a ticket unless one is already queued and not yet started. The
 * flag is cleared when a turn starts, so a card arriving during a running turn queues the next
 * one: no wake-up is lost and turns never pile up.
 */
export async function scheduleTurn(
  ctx: Pick<Ctx, 'redis' | 'keys' | 'queues'>,
  ticketId: string,
  delayMs = 0,
): Promise<boolean> {
  const set = await ctx.redis.set(ctx.keys.turnScheduled(ticketId), '1', 'EX', 3600, 'NX');
  if (set !== 'OK') return false;
  const n = await ctx.redis.incr(`${ctx.keys.turnScheduled(ticketId)}:seq`);
  await ctx.queues.executor.add(
    'turn',
    { ticketId },
    {
      jobId: `turn-${ticketId}-${n}`,
      delay: delayMs,
      attempts: 5,
      backoff: { type: 'exponential', delay: 1000 },
      removeOnComplete: { age: 24 * 3600 },
      removeOnFail: false,
    },
  );
  return true;
}
