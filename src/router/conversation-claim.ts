import type { Ctx } from '../context.ts';
import { releaseLease, takeOrKeepLease } from '../store/lease.ts';

type ClaimCtx = Pick<Ctx, 'redis' | 'keys'>;

/** Long enough for a routing job's few round trips; a crashed holder's claim lapses by itself. */
const CLAIM_MS = 30_000;

/**
 * The owner of `conversationClaim` (issue 18): held by one card while routing decides whether no
 * ticket could be meant in its conversation and opens one by code, so two requests arriving
 * together cannot both find the conversation free. A card that cannot claim goes to the main
 * session, which is always a correct place for it. A lease (`src/store/lease.ts`): the same card
 * claiming again (its routing job retried) still holds it.
 */
export async function claimConversation(
  ctx: ClaimCtx,
  conversation: string,
  cardId: string,
): Promise<boolean> {
  return takeOrKeepLease(ctx.redis, ctx.keys.conversationClaim(conversation), cardId, CLAIM_MS);
}

export async function releaseConversation(
  ctx: ClaimCtx,
  conversation: string,
  cardId: string,
): Promise<void> {
  await releaseLease(ctx.redis, ctx.keys.conversationClaim(conversation), cardId);
}
