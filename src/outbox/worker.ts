import { DelayedError, type Job, UnrecoverableError, Worker } from 'bullmq';
import type { Ctx } from '../context.ts';
import { alertOnce } from '../safety/alert-webhook.ts';
import { admitTicketMessage } from '../safety/circuit-breaker.ts';
import { workerOptions } from '../store/worker-options.ts';
import { isPaused } from '../tickets/pause.ts';
import { sentMessageRefKey } from '../tickets/ref-key.ts';
import { inJobSpan } from '../tracing/job-context.ts';
import { type Effect, type OutboxJob, OutboxJobSchema, type Sender } from './effect.ts';
import { isDeliveryError } from './errors.ts';
import { HOLD_RECHECK_MS, noteHeld } from './held.ts';
import { RATE_LIMITS, takeSlot } from './rate-limit.ts';
import { isSent, recordSent } from './sent-records.ts';

export type Channel = 'feishu' | 'github' | 'local';
export type Senders = Partial<Record<Channel, Sender>>;

export const channelOf = (effect: Effect): Channel => effect.op.split('.')[0] as Channel;

/** The conversation a send counts against for rate limits, or none for edits and reactions. */
function rateScope(effect: Effect): string | undefined {
  switch (effect.op) {
    case 'feishu.send':
      return `feishu:${effect.chatId}`;
    case 'feishu.reply':
      // Feishu's 5 messages/s is per chat, replies included; older jobs name no chat.
      return effect.chatId ? `feishu:${effect.chatId}` : `feishu:reply:${effect.messageId}`;
    case 'feishu.card.reply':
      return `feishu:reply:${effect.messageId}`;
    case 'github.comment':
    case 'github.review_reply':
      return `github:${effect.repo}`;
    case 'github.react':
      // Issue 18: spaced per repository by the client no more; GitHub's content limit is per account.
      return 'github-account:reactions';
    default:
      return undefined;
  }
}

/** Back-off for failed deliveries: the server's `Retry-After` when given, else exponential with jitter. */
export function outboxBackoff(attemptsMade: number, _type?: string, err?: Error): number {
  if (err && isDeliveryError(err) && err.retryAfterMs !== undefined) return err.retryAfterMs + 50;
  const base = Math.min(60_000, 500 * 2 ** Math.max(0, attemptsMade - 1));
  return base + Math.floor(Math.random() * 250);
}

export interface OutboxOutcome {
  status: 'sent' | 'already_sent';
  id?: string;
}

async function deliverOne(ctx: Ctx, senders: Senders, job: Job, token?: string): Promise<OutboxOutcome> {
  const data: OutboxJob = OutboxJobSchema.parse(job.data);
  if (await isSent(ctx, data.key)) return { status: 'already_sent' };
  // R-D2: nothing a paused ticket had queued goes out while it is paused, except the pause/resume
  // confirmations and its status; it is held, never dropped, and goes out after the resume.
  // Issue 8: a ticket's messages count against its circuit breaker; over the limit it is paused.
  if (
    data.ticketId &&
    !data.exemptFromPause &&
    ((await isPaused(ctx, data.ticketId)) || !(await admitTicketMessage(ctx, data)))
  )
    return hold(ctx, job, data.ticketId, channelOf(data.effect), token);
  const channel = channelOf(data.effect);
  const sender = senders[channel];
  if (!sender) throw new UnrecoverableError(`channel ${channel} is off: no credentials configured`);
  const scope = rateScope(data.effect);
  const rule = RATE_LIMITS[scope?.split(':')[0] ?? channel];
  if (scope && rule) {
    const wait = await takeSlot(ctx, scope, rule, job.id ?? data.key, ctx.now());
    if (wait > 0) {
      await job.moveToDelayed(Date.now() + wait, token);
      throw new DelayedError();
    }
  }
  try {
    // A job re-run after its worker died has attemptsMade 0 but attemptsStarted > 1: count those too,
    // so senders without platform idempotency look for what the dead worker may have sent.
    const attempt = Math.max(job.attemptsMade, (job.attemptsStarted ?? 1) - 1);
    const result = await sender.deliver(data.effect, data.key, attempt);
    const record = { at: ctx.now(), id: result.id ?? null, op: data.effect.op };
    // R-B2: a message the ticket sent is one of its references; a reply to it attaches.
    const refs = result.id ? [sentMessageRefKey(channel, result.id)] : [];
    await recordSent(ctx, data.key, record, data.ticketId ? { id: data.ticketId, refs } : undefined);
    ctx.metrics.deliveries.inc({ channel, outcome: 'sent' });
    return result.id ? { status: 'sent', id: result.id } : { status: 'sent' };
  } catch (err) {
    if (isDeliveryError(err) && err.permanent) throw new UnrecoverableError(err.message);
    throw err;
  }
}

/**
 * Holds a paused ticket's delivery (R-D2): noted with the ticket first, then moved aside (delayed)
 * until the resume promotes it — a crash in between runs the job again, which holds it again. A
 * resume that came while it was being held finds it noted and delayed, or the job sees the resume
 * itself and goes back in line; should both miss, it looks again after `HOLD_RECHECK_MS`.
 */
async function hold(ctx: Ctx, job: Job, ticketId: string, channel: Channel, token?: string): Promise<never> {
  ctx.metrics.deliveries.inc({ channel, outcome: 'held_paused' });
  if (!job.id) throw new Error('an outbox job without an id cannot be held');
  await noteHeld(ctx, ticketId, job.id);
  await job.moveToDelayed(Date.now() + HOLD_RECHECK_MS, token);
  if (!(await isPaused(ctx, ticketId))) await job.promote().catch(() => undefined);
  throw new DelayedError();
}

/** One delivery in a consumer span (issue 17): the effect's operation and channel, never its text. */
function tracedDelivery(ctx: Ctx, senders: Senders, job: Job, token?: string): Promise<OutboxOutcome> {
  const data = job.data as Partial<OutboxJob>;
  const attributes: Record<string, string> = {};
  if (data.effect?.op) {
    attributes['switchyard.outbox.op'] = data.effect.op;
    attributes['switchyard.outbox.channel'] = channelOf(data.effect);
  }
  if (data.ticketId) attributes['switchyard.ticket.id'] = data.ticketId;
  return inJobSpan(job, 'outbox.deliver', attributes, async (span) => {
    const outcome = await deliverOne(ctx, senders, job, token);
    span.setAttribute('switchyard.outbox.outcome', outcome.status);
    return outcome;
  });
}

/** Starts the outbox worker: one delivery per job, idempotent by key, retried on 429/5xx. */
export function startOutboxWorker(ctx: Ctx, senders: Senders, concurrency: number): Worker {
  const worker = new Worker('outbox', (job, token) => tracedDelivery(ctx, senders, job, token), {
    ...workerOptions(ctx, concurrency),
    settings: { backoffStrategy: outboxBackoff },
  });
  worker.on('failed', (job, err) => {
    const final = !job || err instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1);
    if (!final) return;
    const effect = (job?.data as OutboxJob | undefined)?.effect;
    ctx.metrics.deliveries.inc({ channel: effect ? channelOf(effect) : 'unknown', outcome: 'failed' });
    const data = job?.data as OutboxJob | undefined;
    ctx.log.error({ err, key: data?.key }, 'outbox delivery failed for good');
    if (data?.key)
      void alertOnce(ctx, {
        kind: 'delivery_failed',
        cause: data.key,
        ticketId: data.ticketId,
        text: `A delivery (${effect?.op ?? 'unknown'}) failed for good: ${err.message}`,
      });
  });
  worker.on('error', (err) => ctx.log.error({ err }, 'outbox worker error'));
  return worker;
}
