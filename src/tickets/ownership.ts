import type { Ctx } from '../context.ts';

type OwnCtx = Pick<Ctx, 'redis' | 'keys'>;

/**
 * The owner of card ownership (issue 20, R-C3): `cardOwners(card)`, the tickets a card was
 * attached to, and `cardTaken(card)`, the owners that acknowledged or answered it. Written in the
 * scripts that attach a card (`attach.ts`, `createTicket`) and hand it back (`handback.ts`), which
 * keep the multi-key rules; read and marked here.
 */

/** Whether the ticket is one of the card's owners (it was attached to the ticket). */
export async function isCardOwner(ctx: OwnCtx, cardId: string, ticketId: string): Promise<boolean> {
  return (await ctx.redis.sismember(ctx.keys.cardOwners(cardId), ticketId)) === 1;
}

/** An owner took the card: acknowledged or answered it (R-C3). */
export async function recordTaken(ctx: OwnCtx, cardId: string, ticketId: string): Promise<void> {
  await ctx.redis.sadd(ctx.keys.cardTaken(cardId), ticketId);
}

export async function wasTakenBy(ctx: OwnCtx, cardId: string, ticketId: string): Promise<boolean> {
  return (await ctx.redis.sismember(ctx.keys.cardTaken(cardId), ticketId)) === 1;
}

/** The tickets the card was attached to. */
export function ownersOf(ctx: OwnCtx, cardId: string): Promise<string[]> {
  return ctx.redis.smembers(ctx.keys.cardOwners(cardId));
}
