import { z } from 'zod';
import type { Ctx } from '../context.ts';
import { encodeRecord, readRecord } from '../store/parse-record.ts';
import type { StoreHandle } from '../store/store-handle.ts';
import type { TurnRun } from './turn-run.ts';

/** How much of a failure's reason is kept (the provider's words; the panel shows it to the operator). */
const REASON_CAP = 300;

/**
 * The last model request a session made, for the panel's Home (issue 33 item 1): when it ended,
 * whether it was answered, how long it took (retries included) and, when it failed, why.
 */
export interface ModelLast {
  at: number;
  ok: boolean;
  ms: number;
  model: string;
  session: string;
  reason?: string;
}

export const ModelLastSchema = z.object({
  at: z.number(),
  ok: z.boolean(),
  ms: z.number(),
  model: z.string(),
  session: z.string(),
  reason: z.string().exactOptional(),
}) satisfies z.ZodType<ModelLast, unknown>;

/** A request of the turn that ended now: answered (no reason) or failed (`reason`), after `ms`. */
export function requestEnd(
  run: Pick<TurnRun, 'now' | 'model' | 'sessionKind'>,
  ms: number,
  reason?: string,
): ModelLast {
  const end = { at: run.now(), ok: reason === undefined, ms: Math.round(ms), model: run.model.model };
  return { ...end, session: run.sessionKind, ...(reason === undefined ? {} : { reason }) };
}

/**
 * The owner of `modelLast`: one record, overwritten by each request's end, so Home knows whether
 * the model answers without asking it on every poll.
 */
export async function recordModelLast(ctx: StoreHandle, last: ModelLast): Promise<void> {
  const value = last.reason === undefined ? last : { ...last, reason: last.reason.slice(0, REASON_CAP) };
  const key = ctx.keys.modelLast();
  // Our own values: a refusal throws (nothing to log it through on a turn without a logger).
  await ctx.redis.set(key, encodeRecord({}, ModelLastSchema, value, key));
}

/** The last request's record, or null before any (or when the stored one does not read). */
export async function readModelLast(ctx: StoreHandle & Partial<Pick<Ctx, 'log'>>): Promise<ModelLast | null> {
  const key = ctx.keys.modelLast();
  const raw = await ctx.redis.get(key);
  if (raw === null) return null;
  const read = readRecord(ctx, ModelLastSchema, raw, key);
  return read.ok ? read.value : null;
}
