import type { Ctx } from '../context.ts';

type RevCtx = Pick<Ctx, 'redis' | 'keys'>;

/**
 * The owner of `sessionRevisions` (issue 20): which prompt-settings revisions a session's model
 * requests used (R-F3: the host records them; people read them on the ticket page and in
 * `GET /api/tickets/:id`, and an executor reads those of its own session with
 * `read_prompt_revision`, which refuses any other). A sorted set scored by revision keeps each once, in order; `appendStep` also adds to it
 * inside its own MULTI.
 */
export async function recordRevision(ctx: RevCtx, sessionId: string, revision: number): Promise<void> {
  await ctx.redis.zadd(ctx.keys.sessionRevisions(sessionId), 'NX', revision, String(revision));
}

/** The revisions a session worked under, oldest first. */
export async function revisionsOf(ctx: RevCtx, sessionId: string): Promise<number[]> {
  return (await ctx.redis.zrange(ctx.keys.sessionRevisions(sessionId), 0, -1)).map(Number);
}
