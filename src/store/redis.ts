import { Cluster, Redis } from 'ioredis';
import { parseRedisUrl } from './redis-url.ts';

/** The product's store: one Redis, a Sentinel-managed primary (also a `Redis`), or a Redis Cluster (issue 19). */
export type RedisConnection = Redis | Cluster;

/**
 * A connection for our own commands. BullMQ workers need `maxRetriesPerRequest: null` (blocking
 * commands must not give up), so every connection is made that way and a down Redis is noticed
 * by `/readyz` rather than by failing requests mid-flight. `url` may name one Redis, a Cluster or a
 * Sentinel group (`parseRedisUrl`); on a Cluster every key of the deployment shares the slot of
 * `KEY_PREFIX`'s hash tag (the config refuses a prefix without one), so multi-key scripts,
 * MULTI and BullMQ's queues work unchanged.
 */
export function connectRedis(url: string, name = 'switchyard'): RedisConnection {
  const target = parseRedisUrl(url);
  const common = { maxRetriesPerRequest: null, enableReadyCheck: true, connectionName: name };
  const auth = {
    ...(target.username ? { username: target.username } : {}),
    ...(target.password ? { password: target.password } : {}),
    ...(target.tls ? { tls: {} } : {}),
  };
  switch (target.kind) {
    case 'single':
      return new Redis(url, common);
    case 'sentinel':
      return new Redis({
        ...common,
        ...auth,
        sentinels: target.sentinels,
        name: target.name,
        db: target.db,
        ...(target.sentinelPassword ? { sentinelPassword: target.sentinelPassword } : {}),
        ...(target.tls ? { enableTLSForSentinelMode: true } : {}),
      });
    case 'cluster':
      return new Cluster(target.nodes, {
        enableReadyCheck: true,
        redisOptions: { ...common, ...auth },
      });
  }
}

/** True when Redis answers PING within `timeoutMs`. */
export async function redisAnswers(redis: RedisConnection, timeoutMs = 500): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([redis.ping().then((r) => r === 'PONG'), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** `/readyz` (issue 16: served by web and worker alike): the context's store answers. */
export function storeAnswers(ctx: { redis: RedisConnection }): Promise<boolean> {
  return redisAnswers(ctx.redis);
}
