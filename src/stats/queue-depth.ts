import { z } from 'zod';
import type { Ctx } from '../context.ts';
import { readRecord } from '../store/parse-record.ts';

/** A day of minutes: the rolling history the queue-depth chart shows. */
export const DEPTH_SAMPLES_KEPT = 1440;
const MINUTE_MS = 60_000;

/** Jobs waiting to start in each queue (waiting, delayed, prioritized) and running (active), at `at`. */
export const DepthSampleSchema = z.object({
  at: z.number(),
  queues: z.record(z.string(), z.object({ waiting: z.number(), active: z.number() })),
});
export type DepthSample = z.infer<typeof DepthSampleSchema>;

/**
 * Appends a sample unless the newest one is from the same minute (several web processes sample
 * the one history), keeps the last `DEPTH_SAMPLES_KEPT` and lets the list expire a day after the
 * last sample. ARGV: the minute, the sample, the cap, the TTL in seconds.
 */
const APPEND = `
local last = redis.call('LINDEX', KEYS[1], -1)
if last and string.sub(last, 1, #ARGV[1] + 1) == (ARGV[1] .. '|') then return 0 end
redis.call('RPUSH', KEYS[1], ARGV[1] .. '|' .. ARGV[2])
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[3]), -1)
redis.call('EXPIRE', KEYS[1], ARGV[4])
return 1`;

/** Each queue's depth now, straight from BullMQ. */
export async function currentDepth(ctx: Pick<Ctx, 'queues' | 'now'>): Promise<DepthSample> {
  const entries = await Promise.all(
    Object.entries(ctx.queues).map(async ([name, q]) => {
      const c = await q.getJobCounts('waiting', 'delayed', 'prioritized', 'active');
      return [
        name,
        { waiting: (c.waiting ?? 0) + (c.delayed ?? 0) + (c.prioritized ?? 0), active: c.active ?? 0 },
      ];
    }),
  );
  return { at: ctx.now(), queues: Object.fromEntries(entries) };
}

/** The owner of `statsQueueDepth` (issue 17): stores one sample (one per minute at most). */
export async function recordDepthSample(
  ctx: Pick<Ctx, 'redis' | 'keys'>,
  sample: DepthSample,
): Promise<boolean> {
  const minute = String(Math.floor(sample.at / MINUTE_MS));
  const added = await ctx.redis.eval(
    APPEND,
    1,
    ctx.keys.statsQueueDepth(),
    minute,
    JSON.stringify(sample),
    String(DEPTH_SAMPLES_KEPT),
    String(86_400),
  );
  return added === 1;
}

/** The stored samples, oldest first; one that fails its schema is logged and skipped. */
export async function readDepthSamples(ctx: Pick<Ctx, 'redis' | 'keys' | 'log'>): Promise<DepthSample[]> {
  const key = ctx.keys.statsQueueDepth();
  const raw = await ctx.redis.lrange(key, 0, -1);
  return raw.flatMap((r) => {
    const read = readRecord(ctx, DepthSampleSchema, r.slice(r.indexOf('|') + 1), key);
    return read.ok ? [read.value] : [];
  });
}
