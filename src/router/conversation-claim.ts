import type { Ctx } from '../context.ts';

type ClaimCtx = Pick<Ctx, 'redis' | 'keys'>;

/** Long enough for a routing job's few round trips; a crashed holder's claim lapses by itself. */
const CLAIM_MS = 30_000;

// KEYS: the claim. ARGV: card id, ms. The same card claiming again (its job retried) still holds it.
const CLAIM = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
if redis.call('GET', KEYS[1]) == ARGV[1] then return 1 end
return 0
`;

const RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end return 1";

/**
 * The owner of `conversationClaim` (issue 18): held by one card while routing decides whether no
 * ticket could be meant in its conversation and opens one by code, so two requests arriving
 * together cannot both find the conversation free. A card that cannot claim goes to the main
 * session, which is always a correct place for it.
 */
export async function claimConversation(
  ctx: ClaimCtx,
  conversation: string,
  cardId: string,
): Promise<boolean> {
  return (await ctx.redis.eval(CLAIM, 1, ctx.keys.conversationClaim(conversation), cardId, CLAIM_MS)) === 1;
}

export async function releaseConversation(
  ctx: ClaimCtx,
  conversation: string,
  cardId: string,
): Promise<void> {
  await ctx.redis.eval(RELEASE, 1, ctx.keys.conversationClaim(conversation), cardId);
}
