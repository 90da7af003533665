import { createHash } from 'node:crypto';
import type { Ctx } from '../../context.ts';

type C = Pick<Ctx, 'redis' | 'keys'>;

/** The content's fingerprint: a checkout restored from a workspace step has the same bytes, so the same hash. */
export const contentHash = (text: string): string =>
  createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 32);

/** Lines of a file a page showed (1-based, inclusive), and how many the file has. */
export interface SeenLines {
  from: number;
  to: number;
  total: number;
}

/**
 * Records that the session saw `path` holding `text` — it read it, or wrote it (issue 28,
 * "read before write"). Stored, not kept in memory: a turn resumed on another worker still knows
 * what its model read. Issue 48: a page (`lines`) records which lines it showed, joined with the
 * pages of the same content seen before; the file counts as seen whole once they cover it.
 * Stored as the hash, or `hash|from-to,…` while only part was seen.
 */
export async function noteFileSeen(
  ctx: C,
  sessionId: string,
  path: string,
  text: string,
  lines?: SeenLines,
): Promise<void> {
  const key = ctx.keys.sessionFileReads(sessionId);
  const hash = contentHash(text);
  if (!lines || (lines.from <= 1 && lines.to >= lines.total)) {
    await ctx.redis.hset(key, path, hash);
    return;
  }
  const [was, ranges = ''] = ((await ctx.redis.hget(key, path)) ?? '').split('|');
  if (was === hash && !ranges) return; // seen whole already
  const seen = was === hash ? parseRanges(ranges) : [];
  const merged = mergeRanges([...seen, [lines.from, lines.to]]);
  const whole = merged.length === 1 && (merged[0]?.[0] ?? 2) <= 1 && (merged[0]?.[1] ?? 0) >= lines.total;
  await ctx.redis.hset(key, path, whole ? hash : `${hash}|${merged.map(([a, b]) => `${a}-${b}`).join(',')}`);
}

/**
 * Records that the session changed `path` to `text` with a passage edit: it has seen all of the
 * new text only if it had seen all of the old (issue 48), else part of it, no line known.
 */
export async function noteFileEdited(ctx: C, sessionId: string, path: string, text: string): Promise<void> {
  const key = ctx.keys.sessionFileReads(sessionId);
  const partial = ((await ctx.redis.hget(key, path)) ?? '').includes('|');
  await ctx.redis.hset(key, path, partial ? `${contentHash(text)}|` : contentHash(text));
}

const parseRanges = (text: string): [number, number][] =>
  text
    .split(',')
    .map((r) => r.split('-').map(Number))
    .filter((r): r is [number, number] => r.length === 2 && r.every(Number.isFinite));

function mergeRanges(ranges: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (const [a, b] of [...ranges].sort((x, y) => x[0] - y[0])) {
    const last = out.at(-1);
    if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
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
): Promise<'unread' | 'changed' | 'partly' | undefined> {
  const seen = await ctx.redis.hget(ctx.keys.sessionFileReads(sessionId), path);
  if (seen === null) return 'unread';
  const [hash, ranges] = seen.split('|');
  if (hash !== contentHash(text)) return 'changed';
  return ranges === undefined ? undefined : 'partly';
}

/** Forgets that the session saw `paths`: replacing one needs a fresh read (after a compaction cut it). */
export async function forgetFilesSeen(ctx: C, sessionId: string, paths: readonly string[]): Promise<void> {
  if (paths.length > 0) await ctx.redis.hdel(ctx.keys.sessionFileReads(sessionId), ...paths);
}
