import type { Redis } from 'ioredis';
import type { Keys } from '../store/keys.ts';

/**
 * Notes that a session's model request used prompt-settings `revision` (R-F3: the host records
 * which revisions each session used, so an executor can read any revision it worked under).
 * A sorted set scored by revision keeps each once, in order.
 */
export async function recordRevision(
  redis: Redis,
  keys: Keys,
  sessionId: string,
  revision: number,
): Promise<void> {
  await redis.zadd(keys.sessionRevisions(sessionId), 'NX', revision, String(revision));
}

/** The revisions a session worked under, oldest first. */
export async function revisionsOf(redis: Redis, keys: Keys, sessionId: string): Promise<number[]> {
  return (await redis.zrange(keys.sessionRevisions(sessionId), 0, -1)).map(Number);
}
