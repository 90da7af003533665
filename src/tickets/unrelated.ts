import type { Ctx } from '../context.ts';
import { unindexRefs } from './refs.ts';

type UnrelatedCtx = Pick<Ctx, 'redis' | 'keys'>;

/**
 * The owner of `ticketUnrelated` (issue 20, R-C4): threads a ticket declared none of its
 * business. Declaring one also takes it out of the reference index, in the same MULTI, so the
 * ticket neither follows the thread nor answers there.
 */
export async function declareUnrelated(
  ctx: UnrelatedCtx,
  ticketId: string,
  threadKeys: string[],
): Promise<void> {
  if (!threadKeys.length) return;
  const tx = ctx.redis.multi().sadd(ctx.keys.ticketUnrelated(ticketId), ...threadKeys);
  unindexRefs(ctx.keys, tx, ticketId, threadKeys);
  await tx.exec();
}

/** Whether any of these thread keys was declared unrelated to the ticket. */
export async function anyUnrelated(
  ctx: UnrelatedCtx,
  ticketId: string,
  threadKeys: string[],
): Promise<boolean> {
  if (!threadKeys.length) return false;
  const hits = await ctx.redis.smismember(ctx.keys.ticketUnrelated(ticketId), ...threadKeys);
  return hits.some(Boolean);
}
