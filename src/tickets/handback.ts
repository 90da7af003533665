import type { Ctx } from '../context.ts';

type HCtx = Pick<Ctx, 'redis' | 'keys'>;

/** Callers import these from here too; their owner is `ownership.ts`. */
export { recordTaken, wasTakenBy } from './ownership.ts';

export type HandbackVerdict = 'taken' | 'pending' | 'candidate' | 'already_candidate';

/**
 * Records that an owner handed a card back (R-C3) and says what follows. The card becomes a
 * candidate only when every owner handed it back and none took it — decided in one script, so of
 * two owners finishing at once exactly one turns it into a candidate.
 */
export async function recordHandback(
  ctx: HCtx,
  cardId: string,
  ticketId: string,
  reason: string,
): Promise<HandbackVerdict> {
  return (await ctx.redis.eval(
    HANDBACK,
    3,
    ctx.keys.cardOwners(cardId),
    ctx.keys.cardTaken(cardId),
    ctx.keys.cardHandbacks(cardId),
    ticketId,
    reason,
  )) as HandbackVerdict;
}

// KEYS: owners, taken, handbacks. ARGV: ticket, reason.
const HANDBACK = `
redis.call('HSETNX', KEYS[3], ARGV[1], ARGV[2])
if redis.call('SCARD', KEYS[2]) > 0 then return 'taken' end
for _, owner in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if redis.call('HEXISTS', KEYS[3], owner) == 0 then return 'pending' end
end
if redis.call('HSETNX', KEYS[3], '#candidate', '1') == 0 then return 'already_candidate' end
return 'candidate'
`;

/** Each owner's hand-back reason, for the main session (R-C3: the candidate carries them). */
export async function handbackReasons(ctx: HCtx, cardId: string): Promise<Record<string, string>> {
  const all = await ctx.redis.hgetall(ctx.keys.cardHandbacks(cardId));
  delete all['#candidate'];
  return all;
}

/** Whether the ticket already handed the card back. */
export async function wasHandedBack(ctx: HCtx, cardId: string, ticketId: string): Promise<boolean> {
  return (await ctx.redis.hexists(ctx.keys.cardHandbacks(cardId), ticketId)) === 1;
}

/** Counts one more main turn that left the candidate undecided; returns how many did. */
export function countUndecided(ctx: HCtx, cardId: string): Promise<number> {
  return ctx.redis.hincrby(ctx.keys.cardHandbacks(cardId), '#undecided', 1);
}
