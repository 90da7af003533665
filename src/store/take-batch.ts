import type { RedisConnection } from './redis.ts';

/**
 * Moves everything waiting in `source` (a list, or a sorted set read in score order) into a
 * turn's `batch` list, or returns the batch this turn already took — so a resumed turn sees the
 * same items and an item is in exactly one of the two. One script: nothing is lost or taken twice
 * by two workers at once.
 */
const TAKE = `
local taken = redis.call('LRANGE', KEYS[2], 0, -1)
if #taken > 0 then return taken end
local ids
if ARGV[1] == 'zset' then ids = redis.call('ZRANGE', KEYS[1], 0, -1) else ids = redis.call('LRANGE', KEYS[1], 0, -1) end
if #ids == 0 then return ids end
redis.call('RPUSH', KEYS[2], unpack(ids))
redis.call('EXPIRE', KEYS[2], ARGV[2])
redis.call('DEL', KEYS[1])
return ids
`;

export async function moveIntoBatch(
  redis: RedisConnection,
  source: { key: string; type: 'list' | 'zset' },
  batchKey: string,
  ttlSeconds = 7 * 86400,
): Promise<string[]> {
  return (await redis.eval(TAKE, 2, source.key, batchKey, source.type, ttlSeconds)) as string[];
}
