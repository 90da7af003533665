import { runScript, script } from '../store/run-script.ts';
import type { StoreHandle } from '../store/store-handle.ts';

const MINUTE_MS = 60_000;
/** A minute's counter outlives the hour Home shows by another hour. */
const MINUTE_TTL_SECONDS = 7200;
/** The channels whose events are counted: the card sources (never outside text in a key). */
export const CHANNELS = ['feishu', 'github', 'local'] as const;
export type Channel = (typeof CHANNELS)[number];

/**
 * Counts a turn's events in their minutes and keeps each channel's latest arrival (a later one
 * never loses to an earlier one arriving late). KEYS: the minutes' counters, then the
 * last-arrival hash. ARGV: the counters' TTL, each counter's increment, then channel and time
 * pairs.
 */
const NOTE = script(`
local n = #KEYS - 1
for i = 1, n do
  redis.call('INCRBY', KEYS[i], ARGV[i + 1])
  redis.call('EXPIRE', KEYS[i], ARGV[1])
end
for i = n + 2, #ARGV, 2 do
  local cur = redis.call('HGET', KEYS[#KEYS], ARGV[i])
  if (not cur) or tonumber(ARGV[i + 1]) > tonumber(cur) then redis.call('HSET', KEYS[#KEYS], ARGV[i], ARGV[i + 1]) end
end
return 1`);

/** What Home shows of one channel's traffic. */
export interface ChannelTraffic {
  /** Events received in the last 60 minutes (this minute included). */
  lastHour: number;
  /** When the last event was received (ms), or null when none was. */
  lastAt: number | null;
}

const channelOf = (source: string): Channel | undefined =>
  (CHANNELS as readonly string[]).includes(source) ? (source as Channel) : undefined;

/** A turn's events not yet counted: per counter key its increment, per channel its latest time. */
interface Tally {
  counts: Map<string, number>;
  last: Map<Channel, number>;
  settle: { resolve: () => void; reject: (err: unknown) => void }[];
}

const waiting = new WeakMap<StoreHandle, Tally>();

/**
 * The owner of `statsChannelEvents` and `statsChannelLast` (issue 33 item 1): an event received
 * from a channel (every event `ingest` is handed: new, duplicate or refused by a rate limit).
 * The events of one event-loop turn are counted in one script call, as their claims are
 * (`cards/claim-batch.ts`, issue 18): a burst of webhooks costs Home one round trip.
 */
export function noteChannelEvent(ctx: StoreHandle, source: string, at: number): Promise<void> {
  const channel = channelOf(source);
  if (!channel) return Promise.resolve();
  const tally = waiting.get(ctx) ?? startTurn(ctx);
  const counter = ctx.keys.statsChannelEvents(channel, Math.floor(at / MINUTE_MS));
  tally.counts.set(counter, (tally.counts.get(counter) ?? 0) + 1);
  tally.last.set(channel, Math.max(at, tally.last.get(channel) ?? 0));
  return new Promise((resolve, reject) => {
    tally.settle.push({ resolve, reject });
  });
}

/** A new turn's tally, sent once the turn's I/O callbacks have run. */
function startTurn(ctx: StoreHandle): Tally {
  const tally: Tally = { counts: new Map(), last: new Map(), settle: [] };
  waiting.set(ctx, tally);
  setImmediate(() => {
    waiting.delete(ctx);
    const keys = [...tally.counts.keys(), ctx.keys.statsChannelLast()];
    const args: (string | number)[] = [MINUTE_TTL_SECONDS, ...tally.counts.values()];
    for (const [channel, at] of tally.last) args.push(channel, at);
    runScript(ctx.redis, NOTE, keys, args).then(
      () => {
        for (const s of tally.settle) s.resolve();
      },
      (err: unknown) => {
        for (const s of tally.settle) s.reject(err);
      },
    );
  });
  return tally;
}

/** Each channel's events in the hour up to `now` and its last arrival, read in one round trip. */
export async function readChannelTraffic(
  ctx: StoreHandle,
  now: number,
): Promise<Record<Channel, ChannelTraffic>> {
  const minute = Math.floor(now / MINUTE_MS);
  const minutes = Array.from({ length: 60 }, (_, i) => minute - i);
  const tx = ctx.redis.multi();
  for (const c of CHANNELS) tx.mget(...minutes.map((m) => ctx.keys.statsChannelEvents(c, m)));
  tx.hgetall(ctx.keys.statsChannelLast());
  const rows = (await tx.exec()) ?? [];
  const last = (rows[CHANNELS.length]?.[1] ?? {}) as Record<string, string>;
  const entries = CHANNELS.map((c, i) => {
    const counts = (rows[i]?.[1] ?? []) as (string | null)[];
    const lastHour = counts.reduce((sum, n) => sum + (Number(n) || 0), 0);
    const at = Number(last[c]);
    return [c, { lastHour, lastAt: Number.isFinite(at) && at > 0 ? at : null }] as const;
  });
  return Object.fromEntries(entries) as Record<Channel, ChannelTraffic>;
}
