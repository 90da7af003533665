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
  // Read, join and write in one step: two pages read at once (parallel read_file calls) both count.
  await ctx.redis.eval(
    SEEN_PAGE,
    1,
    key,
    path,
    hash,
    String(lines.from),
    String(lines.to),
    String(lines.total),
  );
}

// KEYS: the session's reads. ARGV: path, hash, from, to, total. The page's lines joined with the
// ranges seen of the same content (sorted, touching ranges merged); the hash alone once whole.
const SEEN_PAGE = `
local was = redis.call('HGET', KEYS[1], ARGV[1]) or ''
local bar = string.find(was, '|', 1, true)
local hash = bar and string.sub(was, 1, bar - 1) or was
if hash == ARGV[2] and not bar then return 0 end
local ranges = {}
if hash == ARGV[2] then
  for a, b in string.gmatch(string.sub(was, bar + 1), '(%d+)-(%d+)') do
    table.insert(ranges, { tonumber(a), tonumber(b) })
  end
end
table.insert(ranges, { tonumber(ARGV[3]), tonumber(ARGV[4]) })
table.sort(ranges, function(x, y) return x[1] < y[1] end)
local merged = {}
for _, r in ipairs(ranges) do
  local last = merged[#merged]
  if last and r[1] <= last[2] + 1 then
    if r[2] > last[2] then last[2] = r[2] end
  else
    table.insert(merged, { r[1], r[2] })
  end
end
if #merged == 1 and merged[1][1] <= 1 and merged[1][2] >= tonumber(ARGV[5]) then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
  return 1
end
local parts = {}
for _, r in ipairs(merged) do table.insert(parts, r[1] .. '-' .. r[2]) end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. '|' .. table.concat(parts, ','))
return 1
`;

// KEYS: the session's reads. ARGV: path, new hash. Partly seen before stays partly seen.
const EDITED = `
local was = redis.call('HGET', KEYS[1], ARGV[1]) or ''
local partial = string.find(was, '|', 1, true)
redis.call('HSET', KEYS[1], ARGV[1], partial and (ARGV[2] .. '|') or ARGV[2])
return 1
`;

/**
 * Records that the session changed `path` to `text` with a passage edit: it has seen all of the
 * new text only if it had seen all of the old (issue 48), else part of it, no line known.
 */
export async function noteFileEdited(ctx: C, sessionId: string, path: string, text: string): Promise<void> {
  await ctx.redis.eval(EDITED, 1, ctx.keys.sessionFileReads(sessionId), path, contentHash(text));
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
