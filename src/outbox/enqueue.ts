import { createHash } from 'node:crypto';
import type { JobsOptions } from 'bullmq';
import type { Ctx } from '../context.ts';
import { currentFence } from '../store/fence.ts';
import { addJobOn, jobAdded } from '../store/fenced-writer.ts';
import { withTraceContext } from '../tracing/job-context.ts';
import type { Effect, OutboxJob } from './effect.ts';

/** BullMQ custom ids may not contain `:`; a hash of the idempotency key is stable and safe. */
export const outboxJobId = (key: string): string => `o-${createHash('sha1').update(key).digest('hex')}`;

export const OUTBOX_ATTEMPTS = 8;

export interface EnqueueEffect {
  key: string;
  effect: Effect;
  ticketId?: string;
  exemptFromPause?: boolean;
  /**
   * Issue 45: a courtesy (a "seen" reaction, a polite refusal), sent after every ticket's own
   * message waiting in the queue: BullMQ takes jobs without a priority before prioritized ones.
   */
  background?: boolean;
}

/** The BullMQ priority of background effects (any positive number goes after the unprioritized). */
export const BACKGROUND_PRIORITY = 10;

/** The BullMQ job for one outgoing effect: its name, data and options (the id hashes the key). */
export function outboxJob(
  ctx: Pick<Ctx, 'now'>,
  e: EnqueueEffect,
): { name: string; data: OutboxJob; opts: JobsOptions & { jobId: string } } {
  const data: OutboxJob = { key: e.key, effect: e.effect, queuedAt: ctx.now() };
  if (e.ticketId) data.ticketId = e.ticketId;
  if (e.exemptFromPause) data.exemptFromPause = true;
  return {
    name: e.effect.op,
    data: withTraceContext(data),
    opts: {
      jobId: outboxJobId(e.key),
      ...(e.background ? { priority: BACKGROUND_PRIORITY } : {}),
      attempts: OUTBOX_ATTEMPTS,
      backoff: { type: 'outbox' },
      removeOnComplete: { age: 24 * 3600, count: 50_000 },
      // Failed for good: kept and counted, never dropped silently.
      removeOnFail: false,
    },
  };
}

/**
 * Queues one outgoing effect. Adding the same key twice is a no-op while the job is kept, and
 * the worker skips any key already recorded as sent, so callers may repeat freely.
 *
 * Issue 46: inside a fenced turn (`withFence`) the job is added in the fence's MULTI, so it is
 * queued only while the turn's owner still holds it — one that lost the turn to another worker
 * queues nothing and gets `FencedError`. A job queued before the take-over is delivered as usual.
 */
export async function enqueueEffect(ctx: Pick<Ctx, 'queues' | 'now'>, e: EnqueueEffect): Promise<void> {
  const job = outboxJob(ctx, e);
  const fence = currentFence();
  if (!fence) {
    await ctx.queues.outbox.add(job.name, job.data, job.opts);
    return;
  }
  const [added] = await fence.exec((m) => addJobOn(m, ctx.queues.outbox, job));
  jobAdded(added);
}
