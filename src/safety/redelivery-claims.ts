import type { Ctx } from '../context.ts';

type ClaimCtx = Pick<Ctx, 'redis' | 'keys'>;

/**
 * The owner of `redeliveryAsked(guid)` (issue 20, issue 8): a GitHub delivery the bot asked to
 * have redelivered, claimed by one process (SET NX) so two never ask for the same one.
 */
export async function claimRedelivery(
  ctx: ClaimCtx,
  guid: string,
  deliveryId: number,
  ttlMs: number,
): Promise<boolean> {
  return (
    (await ctx.redis.set(ctx.keys.redeliveryAsked(guid), String(deliveryId), 'PX', ttlMs, 'NX')) === 'OK'
  );
}

/** The request failed: let the next run ask again. */
export async function releaseRedelivery(ctx: ClaimCtx, guid: string): Promise<void> {
  await ctx.redis.del(ctx.keys.redeliveryAsked(guid));
}
