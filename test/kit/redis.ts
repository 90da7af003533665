import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll } from 'vitest';
import { createKeys } from '../../src/store/keys.ts';

/** The suite's Redis URL, set by the global setup. */
export const redisUrl = (): string => process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A fresh key prefix for one test: nothing it writes is seen by another. */
export const freshPrefix = (): string => `t-${randomUUID().slice(0, 12)}`;

/**
 * A Redis connection and key set for one test file; the connection closes and the prefix's keys
 * are deleted after the file.
 */
export function testRedis() {
  const redis = new Redis(redisUrl(), { maxRetriesPerRequest: null });
  const prefixes: string[] = [];
  afterAll(async () => {
    for (const p of prefixes) {
      let cursor = '0';
      do {
        const [next, found] = await redis.scan(cursor, 'MATCH', `${p}:*`, 'COUNT', 500);
        cursor = next;
        if (found.length) await redis.unlink(...found);
      } while (cursor !== '0');
    }
    redis.disconnect();
  });
  return {
    redis,
    keys(prefix = freshPrefix()) {
      prefixes.push(prefix);
      return createKeys(prefix);
    },
  };
}
