import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll } from 'vitest';
import { createKeys } from '../../src/store/keys.ts';

/** The suite's Redis URL, set by the global setup. */
export const redisUrl = (): string => process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A fresh key prefix for one test: nothing it writes is seen by another. */
export const freshPrefix = (): string => `t-${randomUUID().slice(0, 12)}`;

/**
 * Fresh prefixes a test file hands the product as its own `KEY_PREFIX` — one app after another on
 * the same data, or a child process — which the app kit keeps when an app closes. Call it where
 * hooks may be registered (a file's or a describe's top level); each call of the function it
 * returns mints one prefix, and after that file or describe — its apps and child processes stopped
 * by then — every key of those prefixes is deleted, so a run leaves nothing in the shared Redis.
 */
export function ownedPrefixes(): () => string {
  const owned: string[] = [];
  afterAll(async () => {
    if (owned.length === 0) return;
    const redis = new Redis(redisUrl(), { maxRetriesPerRequest: null });
    try {
      for (const prefix of owned.splice(0)) await dropKeysStartingWith(redis, `${prefix}:`);
    } finally {
      redis.disconnect();
    }
  });
  return () => {
    const prefix = freshPrefix();
    owned.push(prefix);
    return prefix;
  };
}

/** `s` with Redis glob characters escaped, for a literal MATCH. */
const globLiteral = (s: string): string => s.replace(/[*?[\]\\]/g, '\\$&');

/**
 * Deletes every key that starts with `start` (a test's own prefix, ending in `:` or `-`), and
 * nothing else: one SCAN pass with MATCH on that literal start and a large COUNT (the shared
 * Redis holds every running helper's keys, so a small COUNT means many round trips), UNLINK in
 * batches (freed off the main thread). Resolves to how many keys went.
 */
export async function dropKeysStartingWith(redis: Redis, start: string): Promise<number> {
  if (!/[:-]$/.test(start) || start.length < 4) throw new Error(`refusing to drop keys under "${start}"`);
  let dropped = 0;
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${globLiteral(start)}*`, 'COUNT', 10_000);
    cursor = next;
    for (let i = 0; i < found.length; i += 500) dropped += await redis.unlink(...found.slice(i, i + 500));
  } while (cursor !== '0');
  return dropped;
}

/**
 * A Redis connection for one test file, and `keys()`: a fresh key set per call (each test its own
 * prefix, `<file root>-<n>`). After the file the connection closes and every key of those prefixes
 * is deleted in one SCAN pass over the file root. A prefix handed to the product is minted by
 * {@link ownedPrefixes} instead.
 */
export function testRedis() {
  const redis = new Redis(redisUrl(), { maxRetriesPerRequest: null });
  const root = freshPrefix();
  let made = 0;
  afterAll(async () => {
    if (made) await dropKeysStartingWith(redis, `${root}-`);
    redis.disconnect();
  });
  return {
    redis,
    keys: () => createKeys(`${root}-${++made}`),
  };
}
