import { createHash } from 'node:crypto';
import type { JobsOptions } from 'bullmq';
import type { Ctx } from '../context.ts';
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
}

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
 */
export async function enqueueEffect(ctx: Pick<Ctx, 'queues' | 'now'>, e: EnqueueEffect): Promise<void> {
  const job = outboxJob(ctx, e);
  await ctx.queues.outbox.add(job.name, job.data, job.opts);
}
