import type { ChainableCommander } from 'ioredis';
import { z } from 'zod';
import type { Ctx } from '../context.ts';
import type { Keys } from '../store/keys.ts';
import { readRecord } from '../store/parse-record.ts';
import type { RedisConnection } from '../store/redis.ts';

const Usage = z.object({
  promptTokens: z.number(),
  completionTokens: z.number(),
  cacheHitTokens: z.number(),
});

/**
 * What the transcript does not hold about a step (issue 17, the trajectory): when it happened,
 * how long it took, what a model request cost, compactions and how each turn ended. `index` is
 * the transcript position the step wrote (or reached), so a record joins its message by index.
 */
export const StepRecordSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('turn'), at: z.number(), index: z.number(), turnId: z.string() }),
  z.object({
    kind: z.literal('model'),
    at: z.number(),
    index: z.number(),
    ms: z.number(),
    model: z.string(),
    revision: z.number().optional(),
    usage: Usage,
  }),
  z.object({ kind: z.literal('tool'), at: z.number(), index: z.number(), ms: z.number(), key: z.string() }),
  z.object({
    kind: z.literal('compaction'),
    at: z.number(),
    index: z.number(),
    compactions: z.number(),
    summarisedBefore: z.number(),
    elidedBefore: z.number(),
  }),
  // Issue 28: a note the host added to the transcript (a user message) to steer the model on.
  z.object({ kind: z.literal('note'), at: z.number(), index: z.number(), note: z.string() }),
  z.object({
    kind: z.literal('end'),
    at: z.number(),
    index: z.number(),
    outcome: z.string(),
    detail: z.string().optional(),
  }),
]);
export type StepRecord = z.infer<typeof StepRecordSchema>;

/**
 * The owner of `sessionSteps` (issue 20). A record is added inside the transcript store's own
 * MULTI, so a step and its record are stored together or not at all; the list only grows, like
 * the transcript, and expires with it (`ticket-keys.ts`).
 */
export function addStepRecord(m: ChainableCommander, keys: Keys, sessionId: string, step: StepRecord): void {
  m.rpush(keys.sessionSteps(sessionId), JSON.stringify(step));
}

/** A session's step records, oldest first; a record that fails its schema is logged and skipped. */
export async function readStepRecords(
  ctx: Pick<Ctx, 'log'> & { redis: RedisConnection; keys: Keys },
  sessionId: string,
): Promise<StepRecord[]> {
  const key = ctx.keys.sessionSteps(sessionId);
  const raw = await ctx.redis.lrange(key, 0, -1);
  const out: StepRecord[] = [];
  for (const r of raw) {
    const read = readRecord(ctx, StepRecordSchema, r, key);
    if (read.ok) out.push(read.value);
  }
  return out;
}
