import type { Ctx } from '../context.ts';

type CacheCtx = Pick<Ctx, 'redis' | 'keys'>;

/**
 * The owner of the permission cache (issue 20): `permission(repo, login)`, a GitHub author's
 * permission level as the API answered it, kept `PERMISSION_CACHE_SECONDS`.
 */
export function cachedPermission(ctx: CacheCtx, repo: string, login: string): Promise<string | null> {
  return ctx.redis.get(ctx.keys.permission(repo, login));
}

export async function cachePermission(
  ctx: CacheCtx,
  repo: string,
  login: string,
  permission: string,
  ttlSeconds: number,
): Promise<void> {
  await ctx.redis.set(ctx.keys.permission(repo, login), permission, 'EX', ttlSeconds);
}
