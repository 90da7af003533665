import type { Ctx } from '../context.ts';

type C = Pick<Ctx, 'redis' | 'keys'>;

/**
 * How long the mark outlives a turn that never settles (a crashed job nobody resumed); a settled
 * turn deletes it at once.
 */
const ACTED_TTL_S = 7 * 24 * 3600;

/**
 * Records that a tool which changes the work (a file, a commit, the PR, a review thread) succeeded
 * in this turn (issue 15 "hand-back after silent handling"). Stored, not kept in memory: a turn
 * handed over at shutdown or recovered after a crash resumes on another worker from its
 * transcript, without running those tools again, and must still know its follow-ups were acted on.
 */
export async function noteTurnActed(ctx: C, turnId: string): Promise<void> {
  await ctx.redis.set(ctx.keys.turnActed(turnId), '1', 'EX', ACTED_TTL_S);
}

/** Whether any step of this turn, on whichever worker ran it, changed the work. */
export async function turnActed(ctx: C, turnId: string): Promise<boolean> {
  return (await ctx.redis.exists(ctx.keys.turnActed(turnId))) === 1;
}

/** Forgets the mark once the turn is settled. */
export async function clearTurnActed(ctx: C, turnId: string): Promise<void> {
  await ctx.redis.del(ctx.keys.turnActed(turnId));
}
