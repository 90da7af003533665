import { createHash } from 'node:crypto';
import type { Ctx } from '../../context.ts';

type C = Pick<Ctx, 'redis' | 'keys'>;

/** The content's fingerprint: a checkout restored from a workspace step has the same bytes, so the same hash. */
export const contentHash = (text: string): string =>
  createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 32);

/**
 * Records that the session saw `path` holding `text` — it read it, or wrote it (issue 28,
 * "read before write"). Stored, not kept in memory: a turn resumed on another worker still knows
 * what its model read.
 */
export async function noteFileSeen(ctx: C, sessionId: string, path: string, text: string): Promise<void> {
  await ctx.redis.hset(ctx.keys.sessionFileReads(sessionId), path, contentHash(text));
}

/**
 * Why the session may not replace `path`, which now holds `text`: it never read it, or the file
 * changed since it last read or wrote it (a command, a formatter). Undefined when it may.
 */
export async function staleFile(
  ctx: C,
  sessionId: string,
  path: string,
  text: string,
): Promise<'unread' | 'changed' | undefined> {
  const seen = await ctx.redis.hget(ctx.keys.sessionFileReads(sessionId), path);
  if (seen === null) return 'unread';
  return seen === contentHash(text) ? undefined : 'changed';
}

/** Forgets that the session saw `paths`: replacing one needs a fresh read (after a compaction cut it). */
export async function forgetFilesSeen(ctx: C, sessionId: string, paths: readonly string[]): Promise<void> {
  if (paths.length > 0) await ctx.redis.hdel(ctx.keys.sessionFileReads(sessionId), ...paths);
}
