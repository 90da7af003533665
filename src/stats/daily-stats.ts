import type { ChainableCommander } from 'ioredis';
import type { Ctx } from '../context.ts';
import type { Keys } from '../store/keys.ts';
import type { StoreHandle } from '../store/store-handle.ts';
import { type DailyCounts, dayOf } from './daily-counts.ts';
import { type DayStats, dayStatsFrom } from './day-stats.ts';

const DAY_MS = 86_400_000;
/** How long a day's counters are kept after the day (the charts show at most this many days). */
export const STATS_RETENTION_DAYS = 90;

/**
 * Sums `add` fields and keeps the largest `max` fields of one day's hash, then sets its expiry:
 * one script so a `max` is never lost between a read and a write by another process.
 */
const COUNT = `
for i = 2, #ARGV, 3 do
  local op, field, v = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2])
  if op == 'add' then
    redis.call('HINCRBY', KEYS[1], field, v)
  else
    local cur = redis.call('HGET', KEYS[1], field)
    if (not cur) or v > tonumber(cur) then redis.call('HSET', KEYS[1], field, v) end
  end
end
redis.call('EXPIREAT', KEYS[1], ARGV[1])
return 1`;

function countArgs(c: DailyCounts): string[] {
  const day = dayOf(c.at);
  const expireAt = Math.floor(Date.parse(day) / 1000) + (STATS_RETENTION_DAYS + 1) * 86_400;
  const args = [String(expireAt)];
  for (const [f, v] of Object.entries(c.add)) args.push('add', f, String(Math.round(v)));
  for (const [f, v] of Object.entries(c.max ?? {})) args.push('max', f, String(Math.round(v)));
  return args;
}

/**
 * The owner of `statsDay` (issue 17). Adds an event's counts inside the caller's MULTI, so a
 * step and its counts are stored together (a resumed turn never counts a request twice).
 */
export function addDailyCounts(m: ChainableCommander, keys: Keys, counts: DailyCounts): void {
  m.eval(COUNT, 1, keys.statsDay(dayOf(counts.at)), ...countArgs(counts));
  // Issue 33 item 5: the ticket's running cost lands with the step (its budget reads it).
  const t = counts.ticketCost;
  if (t) m.hincrby(keys.ticketCost(t.ticketId), 'nanos', Math.round(t.nanos));
}

/** What a ticket's model requests have cost so far, in nano-dollars (issue 33 item 5). */
export async function ticketCostNanos(ctx: StoreHandle, ticketId: string): Promise<number> {
  return Number((await ctx.redis.hget(ctx.keys.ticketCost(ticketId), 'nanos')) ?? 0);
}

/** What every model request of `at`'s UTC day has cost so far, in nano-dollars. */
export async function dayCostNanos(ctx: StoreHandle, at: number): Promise<number> {
  return Number((await ctx.redis.hget(ctx.keys.statsDay(dayOf(at)), 'cost:all')) ?? 0);
}

/** Adds an event's counts on its own (an acknowledgement, a ticket's state change). */
export async function recordDailyCounts(ctx: StoreHandle, counts: DailyCounts): Promise<void> {
  await ctx.redis.eval(COUNT, 1, ctx.keys.statsDay(dayOf(counts.at)), ...countArgs(counts));
}

/** The last `days` UTC days up to `now`'s, oldest first; a day without events is all zeros. */
export async function readDailyStats(ctx: StoreHandle & Pick<Ctx, 'now'>, days: number): Promise<DayStats[]> {
  const today = Date.parse(dayOf(ctx.now()));
  const list = Array.from({ length: days }, (_, i) => dayOf(today - (days - 1 - i) * DAY_MS));
  const tx = ctx.redis.multi();
  for (const d of list) tx.hgetall(ctx.keys.statsDay(d));
  const rows = (await tx.exec()) ?? [];
  return list.map((day, i) => dayStatsFrom(day, (rows[i]?.[1] ?? {}) as Record<string, string>));
}
