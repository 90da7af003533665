import { z } from 'zod';
import type { Ctx } from '../context.ts';
import { parseRecord } from '../store/parse-record.ts';

/** How routing placed a card (issue 20: the shape written once, the type inferred from it). */
export const RouteOutcomeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('attached'), tickets: z.array(z.string()) }),
  z.object({
    kind: z.literal('command'),
    /** `language`: a chat's language fixed or freed (issue 16), no ticket involved. */
    command: z.enum(['pause', 'resume', 'language']),
    tickets: z.array(z.string()),
  }),
  /** `/repo` in a chat (issue 16): what became of it. */
  z.object({ kind: z.literal('chat_repo'), result: z.enum(['set', 'shown', 'invalid', 'refused']) }),
  z.object({ kind: z.literal('candidate') }),
  /** Issue 18: opened by code, the decision being forced; `reason` is the decision record. */
  z.object({ kind: z.literal('opened'), ticket: z.string(), reason: z.string() }),
  z.object({ kind: z.literal('ignored'), reason: z.string() }),
]);
export type RouteOutcome = z.infer<typeof RouteOutcomeSchema>;

/** Routing's refusals (issue 33 item 2: the events inbox files these as `refused`, not `ignored`). */
export const REFUSALS = {
  pressNotAllowed: 'a button press by someone not allowed changes nothing (R-A5)',
  mayNotStart: 'author may not start work (R-A5)',
} as const;

type OutcomeCtx = Pick<Ctx, 'redis' | 'keys' | 'log'>;

/** Routing records each card's outcome once for 30 days, so a retried job does not place it twice. */
const OUTCOME_TTL_SECONDS = 30 * 24 * 3600;

/**
 * The owner of a card's routing outcome (`cardRouted`): read through its schema (an invalid one
 * is logged and thrown as `StoredRecordError`), or undefined before the card was routed.
 */
export async function loadRouteOutcome(ctx: OutcomeCtx, cardId: string): Promise<RouteOutcome | undefined> {
  const key = ctx.keys.cardRouted(cardId);
  const raw = await ctx.redis.get(key);
  return raw ? parseRecord(ctx, RouteOutcomeSchema, raw, key) : undefined;
}

export async function saveRouteOutcome(
  ctx: OutcomeCtx,
  cardId: string,
  outcome: RouteOutcome,
): Promise<void> {
  await ctx.redis.set(ctx.keys.cardRouted(cardId), JSON.stringify(outcome), 'EX', OUTCOME_TTL_SECONDS);
}
