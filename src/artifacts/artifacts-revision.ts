import type { Ctx } from '../context.ts';

type RevCtx = Pick<Ctx, 'redis' | 'keys'>;

/**
 * The owner of `artifactsRevision` (issue 20, R-G5): a counter every process compares with the
 * bundled tier it loaded; a reload bumps it, so each process re-reads the files at its next turn.
 */
export async function artifactsRevision(ctx: RevCtx): Promise<number> {
  return Number((await ctx.redis.get(ctx.keys.artifactsRevision())) ?? 0);
}

export function bumpArtifactsRevision(ctx: RevCtx): Promise<number> {
  return ctx.redis.incr(ctx.keys.artifactsRevision());
}
