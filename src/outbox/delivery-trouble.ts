import type { Job } from 'bullmq';
import type { Ctx } from '../context.ts';
import { HttpError } from '../errors/http-error.ts';
import { outboxJobId } from './enqueue.ts';
import { isSent } from './sent-records.ts';

type TroubleCtx = Pick<Ctx, 'redis' | 'keys' | 'queues'>;

/** How many failed and delayed outbox jobs a ticket page looks through (newest first). */
const SCAN = 1000;

/** A delivery of a ticket that failed for good, or failed and waits for its next attempt. */
export interface DeliveryTrouble {
  key: string;
  op: string;
  state: 'failed' | 'retrying';
  /** The channel's error, as the outbox worker recorded it. */
  error: string;
  attempts: number;
  /** When it last failed (epoch ms), or null when unknown. */
  at: number | null;
}

const ticketOf = (job: Job): string | undefined =>
  (job.data as { ticketId?: unknown } | undefined)?.ticketId as string | undefined;

/**
 * The ticket's deliveries that are not sent and have failed: for good (`failed`) or for now,
 * waiting to be tried again (`retrying`: delayed after an error). A delivery held by a pause is
 * delayed without an error and is not listed; neither is one recorded as sent since.
 */
export async function deliveryTrouble(ctx: TroubleCtx, ticketId: string): Promise<DeliveryTrouble[]> {
  const [failed, delayed] = await Promise.all([
    ctx.queues.outbox.getFailed(0, SCAN - 1),
    ctx.queues.outbox.getDelayed(0, SCAN - 1),
  ]);
  const mine = [
    ...failed.map((job) => ({ job, state: 'failed' as const })),
    ...delayed.filter((job) => job.failedReason).map((job) => ({ job, state: 'retrying' as const })),
  ].filter(({ job }) => job && ticketOf(job) === ticketId);
  const out: DeliveryTrouble[] = [];
  for (const { job, state } of mine) {
    const key = String((job.data as { key?: unknown }).key ?? '');
    if (!key || (await isSent(ctx, key))) continue;
    out.push({
      key,
      op: job.name,
      state,
      error: job.failedReason ?? '',
      attempts: job.attemptsMade,
      at: job.finishedOn ?? job.processedOn ?? null,
    });
  }
  return out.sort((a, b) => (a.at ?? 0) - (b.at ?? 0));
}

/**
 * Sends a failed delivery again: the same job, under the same idempotency key, so the worker
 * finds a sent record if it went out after all and sends nothing twice. A delivery waiting for
 * its next attempt is tried now. Refuses a key that is not the ticket's, not failing, or sent.
 */
export async function retryDelivery(
  ctx: TroubleCtx,
  ticketId: string,
  key: string,
): Promise<{ key: string; retried: 'failed' | 'retrying' }> {
  const job = await ctx.queues.outbox.getJob(outboxJobId(key));
  if (!job || ticketOf(job) !== ticketId)
    throw new HttpError(404, 'not_found', `no delivery ${key} of ticket ${ticketId}`);
  if (await isSent(ctx, key)) throw new HttpError(409, 'already_sent', `delivery ${key} was sent`);
  const state = await job.getState();
  if (state === 'failed') {
    await job.retry('failed');
    return { key, retried: 'failed' };
  }
  if (state === 'delayed' && job.failedReason) {
    await job.promote();
    return { key, retried: 'retrying' };
  }
  throw new HttpError(409, 'not_failed', `delivery ${key} has not failed (it is ${state})`);
}
