import { Redis } from 'ioredis';

/**
 * A connection for our own commands. BullMQ workers need `maxRetriesPerRequest: null` (blocking
 * commands must not give up), so every connection is made that way and a down Redis is noticed
 * by `/readyz` rather than by failing requests mid-flight.
 */
export function connectRedis(url: string, name = 'switchyard'): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, connectionName: name });
}

/** True when Redis answers PING within `timeoutMs`. */
export async function redisAnswers(redis: Redis, timeoutMs = 500): Promise<boolean> {
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
export function storeAnswers(ctx: { redis: Redis }): Promise<boolean> {
  return redisAnswers(ctx.redis);
}
