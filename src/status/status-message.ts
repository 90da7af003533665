import type { Ctx } from '../context.ts';
import { outboxJobId } from '../outbox/enqueue.ts';
import { isSent } from '../outbox/sent-records.ts';

type MsgCtx = Pick<Ctx, 'redis' | 'keys' | 'queues'>;

/** The ticket's status message as the sync left it (hash `statusMessage`). */
export interface StatusMessageRecord {
  /** Outbox key of the post (or its one fallback): its sent record holds the message id. */
  key?: string;
  /** When that post was queued: Feishu edits only within 14 days of it. */
  postedAt?: number;
  /** Outbox key of the newest post or edit queued: the next edit waits until it is settled. */
  pending?: string;
  /** Hash of the content last queued, so an unchanged render sends nothing. */
  hash?: string;
  fallback?: boolean;
  /** The fallback failed too: the status message is no longer updated. */
  gaveUp?: boolean;
}

export async function readStatusMessage(ctx: MsgCtx, ticketId: string): Promise<StatusMessageRecord> {
  const h = await ctx.redis.hgetall(ctx.keys.statusMessage(ticketId));
  return {
    ...(h.key ? { key: h.key } : {}),
    ...(h.postedAt ? { postedAt: Number(h.postedAt) } : {}),
    ...(h.pending ? { pending: h.pending } : {}),
    ...(h.hash ? { hash: h.hash } : {}),
    ...(h.fallback === '1' ? { fallback: true } : {}),
    ...(h.gaveUp === '1' ? { gaveUp: true } : {}),
  };
}

export async function writeStatusMessage(
  ctx: MsgCtx,
  ticketId: string,
  patch: Partial<Record<keyof StatusMessageRecord, string | number | boolean>>,
): Promise<void> {
  const flat = Object.entries(patch).map(([k, v]) => [k, v === true ? '1' : String(v)]);
  await ctx.redis.hset(ctx.keys.statusMessage(ticketId), Object.fromEntries(flat));
}

/** The next number for a counter of the status message: `jobs` (sync jobs) or `edits` (edit keys). */
export function nextStatusSeq(ctx: MsgCtx, ticketId: string, counter: 'jobs' | 'edits'): Promise<number> {
  return ctx.redis.hincrby(ctx.keys.statusMessage(ticketId), counter, 1);
}

/**
 * Where an outbox delivery stands: `sent`, `pending` (queued, running or waiting to retry — a
 * rate-limit answer keeps it here), or `failed` for good.
 */
export async function deliveryState(ctx: MsgCtx, key: string): Promise<'sent' | 'pending' | 'failed'> {
  if (await isSent(ctx, key)) return 'sent';
  const job = await ctx.queues.outbox.getJob(outboxJobId(key));
  if (!job) return 'failed';
  const state = await job.getState();
  if (state === 'failed') return 'failed';
  // Completed without a sent record: held, or the channel was off. Nothing will come of it.
  if (state === 'completed') return 'failed';
  return 'pending';
}
