import type { Ctx } from '../../context.ts';

type C = Pick<Ctx, 'redis' | 'keys'>;

/**
 * Whether the call `callKey` is the one that shows the look before delivery at `head` (issue 48
 * item 3): the first call at that head is, and so is that same call run again by a turn resumed
 * after a crash (its model never read the answer); any later call goes on. Stored per ticket and
 * head, so a resumed turn, on any worker, does not show the look again.
 */
export async function looksAt(ctx: C, ticketId: string, head: string, callKey: string): Promise<boolean> {
  const key = ctx.keys.ticketDeliveryLooks(ticketId);
  if ((await ctx.redis.hsetnx(key, head, callKey)) === 1) return true;
  return (await ctx.redis.hget(key, head)) === callKey;
}
