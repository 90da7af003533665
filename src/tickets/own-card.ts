import type { Ctx } from '../context.ts';

/**
 * R-C5, R-H5: is this card one of the ticket's own — attached to it (the ticket is among its
 * owners) and not as data from another repository or chat? Only such a card may carry the
 * ticket's questions; one round trip.
 */
export async function isOwnCard(
  ctx: Pick<Ctx, 'redis' | 'keys'>,
  ticketId: string,
  cardId: string,
): Promise<boolean> {
  const [[, owner], [, data]] = ((await ctx.redis
    .multi()
    .sismember(ctx.keys.cardOwners(cardId), ticketId)
    .hexists(ctx.keys.ticketDataCards(ticketId), cardId)
    .exec()) ?? []) as [[unknown, number], [unknown, number]];
  return owner === 1 && data === 0;
}
