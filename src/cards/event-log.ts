import type { Ctx } from '../context.ts';
import { encodeRecord, readRecord } from '../store/parse-record.ts';
import { runScript, script } from '../store/run-script.ts';
import type { TriggerCard } from './card.ts';
import {
  type EventEntry,
  EventEntrySchema,
  type EventFilter,
  entryOfCard,
  type FateNote,
  matchesFilter,
} from './event-fate.ts';

/** The inbox keeps the newest 2,000 entries of the last 7 days (issue 33 item 2). */
export const EVENT_LOG_CAP = 2000;
export const EVENT_LOG_DAYS = 7;
const DAY_MS = 86_400_000;

type LogCtx = Pick<Ctx, 'redis' | 'keys' | 'log' | 'now'>;

/**
 * One entry per event id, updated as its fate progresses (received → attached…): the sorted set
 * keeps the first arrival as the score (`NX`), the hash the newest JSON. With `ifAbsent` a write
 * never replaces a later fate (`received` written after the routing job already placed the card).
 * Then the bound, in the same script: entries older than the window (a hundred at a time) and
 * those past the cap, oldest first, leave both keys; both expire a window after the last write.
 * One call carries every entry of an event-loop turn, in the order they were written.
 * ARGV: cap, cut-off (ms), window (ms), then per entry its id, first arrival, JSON and ifAbsent.
 */
const UPSERT = script(`
for i = 4, #ARGV, 4 do
  if not (ARGV[i + 3] == '1' and redis.call('HEXISTS', KEYS[2], ARGV[i]) == 1) then
    redis.call('ZADD', KEYS[1], 'NX', ARGV[i + 1], ARGV[i])
    redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 2])
  end
end
local gone = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[2], 'LIMIT', 0, 100)
local over = redis.call('ZCARD', KEYS[1]) - #gone - tonumber(ARGV[1])
if over > 0 then
  for _, id in ipairs(redis.call('ZRANGE', KEYS[1], #gone, #gone + over - 1)) do table.insert(gone, id) end
end
if #gone > 0 then
  redis.call('ZREM', KEYS[1], unpack(gone))
  redis.call('HDEL', KEYS[2], unpack(gone))
end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 1`);

/** Entries written in one call at most; a bigger turn's go out in several. */
const MAX_ENTRIES = 200;

interface PendingEntry {
  entry: EventEntry;
  /** The entry as stored, checked against its schema when it was written. */
  json: string;
  ifAbsent: boolean;
  done: () => void;
}

/** Per context: the entries waiting for the end of this event-loop turn. */
const waiting = new WeakMap<LogCtx, PendingEntry[]>();

/**
 * The owner of `eventLog` and `eventLogEntries`: writes one entry (checked against its schema,
 * issue 31). The entries of one event-loop turn go to Redis in one script call, as the claims of
 * that turn do (`claim-batch.ts`, issue 18): a burst of webhooks costs the inbox one round trip,
 * not one per card. The inbox is a record of what happened, never the state itself: a failed
 * write is logged and swallowed, so it never fails a webhook or a routing job. Settles once the
 * entry is written (or its failure logged).
 */
export function recordEvent(
  ctx: LogCtx,
  entry: EventEntry,
  opts: { ifAbsent?: boolean } = {},
): Promise<void> {
  let json: string;
  try {
    json = encodeRecord(ctx, EventEntrySchema, entry, ctx.keys.eventLogEntries());
  } catch (err) {
    ctx.log.warn({ err, entry: entry.id, fate: entry.fate }, 'events inbox: entry not written');
    return Promise.resolve();
  }
  const queue = waiting.get(ctx) ?? startTurn(ctx);
  return new Promise((done) => {
    queue.push({ entry, json, ifAbsent: opts.ifAbsent === true, done });
  });
}

/** A new turn's queue, sent once the turn's I/O callbacks have run. */
function startTurn(ctx: LogCtx): PendingEntry[] {
  const queue: PendingEntry[] = [];
  waiting.set(ctx, queue);
  setImmediate(() => {
    waiting.delete(ctx);
    for (let i = 0; i < queue.length; i += MAX_ENTRIES) void writeAll(ctx, queue.slice(i, i + MAX_ENTRIES));
  });
  return queue;
}

async function writeAll(ctx: LogCtx, batch: PendingEntry[]): Promise<void> {
  const windowMs = EVENT_LOG_DAYS * DAY_MS;
  const args: (string | number)[] = [EVENT_LOG_CAP, ctx.now() - windowMs, windowMs];
  for (const p of batch) args.push(p.entry.id, p.entry.at, p.json, p.ifAbsent ? '1' : '0');
  try {
    await runScript(ctx.redis, UPSERT, [ctx.keys.eventLog(), ctx.keys.eventLogEntries()], args);
  } catch (err) {
    for (const { entry } of batch)
      ctx.log.warn({ err, entry: entry.id, fate: entry.fate }, 'events inbox: entry not written');
  } finally {
    for (const p of batch) p.done();
  }
}
/** A card's fate now: its entry (by card id) created or updated. */
export function recordCardFate(
  ctx: LogCtx,
  card: TriggerCard,
  note: FateNote,
  opts: { ifAbsent?: boolean; id?: string; cardId?: string | null } = {},
): Promise<void> {
  const { ifAbsent, ...ids } = opts;
  return recordEvent(ctx, entryOfCard(card, note, ctx.now(), ids), { ifAbsent: ifAbsent === true });
}

export interface EventPage {
  events: EventEntry[];
  /** Pass back as `cursor` for the next (older) page; absent on the last page. */
  next?: string;
}

const SCAN_CHUNK = 200;

/**
 * The newest entries that pass `filter`, older than `cursor` (`<first arrival>:<id>`, exclusive),
 * at most `limit`. Reads the sorted set newest first in chunks until the page is full: the whole
 * log is at most `EVENT_LOG_CAP` entries. An entry that fails its schema is logged and left out.
 */
export async function readEvents(
  ctx: LogCtx,
  filter: EventFilter,
  cursor: string | undefined,
  limit: number,
): Promise<EventPage> {
  const key = ctx.keys.eventLogEntries();
  const after = parseCursor(cursor);
  const events: EventEntry[] = [];
  const max = after ? String(after.score) : '+inf';
  let skip = 0;
  for (;;) {
    const ids = await ctx.redis.zrevrangebyscore(ctx.keys.eventLog(), max, '-inf', 'LIMIT', skip, SCAN_CHUNK);
    if (!ids.length) return { events };
    skip += ids.length;
    const raws = await ctx.redis.hmget(key, ...ids);
    for (const raw of raws) {
      const read = raw ? readRecord(ctx, EventEntrySchema, raw, key) : undefined;
      const entry = read?.ok ? read.value : undefined;
      if (!entry || (after && !olderThan(entry, after)) || !matchesFilter(entry, filter)) continue;
      events.push(entry);
      if (events.length === limit) return { events, next: `${entry.at}:${entry.id}` };
    }
    if (ids.length < SCAN_CHUNK) return { events };
  }
}

/** Redis orders equal scores by id, and the reverse range by id descending. */
function olderThan(e: EventEntry, c: { score: number; id: string }): boolean {
  return e.at < c.score || (e.at === c.score && e.id < c.id);
}

/** A page's `next` (`<ms>:<entry id>`) read back; undefined for anything else. */
export function parseCursor(cursor: string | undefined): { score: number; id: string } | undefined {
  if (!cursor) return undefined;
  const at = cursor.indexOf(':');
  const score = Number(cursor.slice(0, at));
  const id = cursor.slice(at + 1);
  return at > 0 && Number.isSafeInteger(score) && score >= 0 && id ? { score, id } : undefined;
}
