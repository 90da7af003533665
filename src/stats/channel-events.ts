import type { StoreHandle } from '../store/store-handle.ts';

const MINUTE_MS = 60_000;
/** A minute's counter outlives the hour Home shows by another hour. */
const MINUTE_TTL_SECONDS = 7200;
/** The channels whose events are counted: the card sources (never outside text in a key). */
export const CHANNELS = ['feishu', 'github', 'local'] as const;
export type Channel = (typeof CHANNELS)[number];

/**
 * Counts one event in its minute and keeps the channel's latest arrival (a later one never loses
 * to an earlier one arriving late). KEYS: the minute's counter, the last-arrival hash.
 * ARGV: the channel, the time, the counter's TTL.
 */
const NOTE = `
redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[3])
local cur = redis.call('HGET', KEYS[2], ARGV[1])
if (not cur) or tonumber(ARGV[2]) > tonumber(cur) then redis.call('HSET', KEYS[2], ARGV[1], ARGV[2]) end
return 1`;

/** What Home shows of one channel's traffic. */
export interface ChannelTraffic {
  /** Events received in the last 60 minutes (this minute included). */
  lastHour: number;
  /** When the last event was received (ms), or null when none was. */
  lastAt: number | null;
}

const channelOf = (source: string): Channel | undefined =>
  (CHANNELS as readonly string[]).includes(source) ? (source as Channel) : undefined;

/**
 * The owner of `statsChannelEvents` and `statsChannelLast` (issue 33 item 1): an event received
 * from a channel (every event `ingest` is handed: new, duplicate or refused by a rate limit).
 */
export async function noteChannelEvent(ctx: StoreHandle, source: string, at: number): Promise<void> {
  const channel = channelOf(source);
  if (!channel) return;
  const minute = Math.floor(at / MINUTE_MS);
  const { keys } = ctx;
  await ctx.redis.eval(
    NOTE,
    2,
    keys.statsChannelEvents(channel, minute),
    keys.statsChannelLast(),
    channel,
    String(at),
    String(MINUTE_TTL_SECONDS),
  );
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
