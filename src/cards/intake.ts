import { Job, type JobsOptions } from 'bullmq';
import { z } from 'zod';
import type { Ctx } from '../context.ts';
import { outboxJob } from '../outbox/enqueue.ts';
import { readRecord } from '../store/parse-record.ts';
import { runScript, script } from '../store/run-script.ts';
import type { TraceCarrier } from '../tracing/job-context.ts';
import type { TriggerCard } from './card.ts';
import { seenReactionFor } from './seen-reaction.ts';

/**
 * Issue 18: a card's follow-up jobs — its routing job and its "seen" reaction — are created after
 * the webhook is answered. The ingest script stores the card and adds its id to the intake (one
 * round trip before the answer); this module turns intake entries into jobs, many cards in one
 * pipelined round trip, and then removes them from the intake and marks their deliveries
 * `queued`. Job ids are fixed (the card id, the reaction's idempotency key), so queueing a card
 * twice — a redelivery, a pump retaking a card whose lease ran out — makes no second job. A
 * process that dies before its jobs exist leaves the entries behind, and their lease runs out.
 */

type IntakeCtx = Pick<Ctx, 'redis' | 'keys' | 'queues' | 'now' | 'log'>;

/** Cards queued in one pipeline at most (each is one or two BullMQ scripts). */
const MAX_BATCH = 200;

/** How long a taken intake entry (or one this process queues itself) is left to its taker. */
export const INTAKE_LEASE_MS = 5_000;

/**
 * Routing is retried as turns are (a Redis blip, a queue that refused a job): every step of
 * `routeCard` is safe to repeat, and a job that failed for good would lose the request, since a
 * redelivery of its event is answered as a duplicate.
 */
export const ROUTE_JOB_OPTS: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { age: 3600 },
  removeOnFail: false,
};

/** A card to queue, with the trace context it was ingested under (issue 17), if tracing is on. */
export interface IntakeCard {
  card: TriggerCard;
  trace?: TraceCarrier | undefined;
}

/** The jobs exist: the deliveries become `queued` (if their claim still lives), the cards leave the intake. */
const MARK_QUEUED = script(`
for i = 3, #KEYS do
  redis.call('SET', KEYS[i], 'queued', 'XX', 'KEEPTTL')
end
redis.call('ZREM', KEYS[1], unpack(ARGV))
redis.call('HDEL', KEYS[2], unpack(ARGV))
return 1
`);

/** Job data carrying exactly the card's own trace context (never the caller's). */
function traced<T extends object>(data: T, trace: TraceCarrier | undefined): T {
  const { traceContext: _, ...rest } = data as T & { traceContext?: unknown };
  return (trace ? { ...rest, traceContext: trace } : rest) as T;
}

/**
 * Creates the routing job and the "seen" reaction of every card in one pipeline, then marks them
 * queued. Throws when Redis refused any job; the cards then stay in the intake.
 */
export async function queueCardJobs(ctx: IntakeCtx, items: readonly IntakeCard[]): Promise<void> {
  if (items.length === 0) return;
  // The queues' client is the shared connection with BullMQ's scripts loaded on it.
  const pipeline = (await ctx.queues.route.client).pipeline();
  for (const { card, trace } of items) {
    const reaction = seenReactionFor(card);
    if (reaction) {
      const seen = { key: `seen:${card.id}`, effect: reaction, exemptFromPause: true, background: true };
      const j = outboxJob(ctx, seen);
      void new Job(ctx.queues.outbox, j.name, traced(j.data, trace), j.opts, j.opts.jobId).addJob(pipeline);
    }
    const route = traced({ cardId: card.id }, trace);
    void new Job(ctx.queues.route, 'route', route, ROUTE_JOB_OPTS, card.id).addJob(pipeline);
  }
  const results = (await pipeline.exec()) ?? [];
  for (const [err] of results) if (err) throw err;
  const { keys } = ctx;
  await runScript(
    ctx.redis,
    MARK_QUEUED,
    [
      keys.cardsIntake(),
      keys.cardsIntakeTrace(),
      ...items.map((i) => keys.seen(i.card.source, i.card.eventId)),
    ],
    items.map((i) => i.card.id),
  );
}

interface Waiting {
  item: IntakeCard;
  done: (err?: unknown) => void;
}

interface Drain {
  pending: Waiting[];
  running: Promise<void> | undefined;
}

/** One drain per context (keyed by its queues), so tests' apps never share one. */
const drains = new WeakMap<object, Drain>();

/**
 * Queues a card's jobs soon, together with every other card that arrives meanwhile: the first
 * card schedules a drain after the current I/O (its answer is written first); cards arriving
 * while a batch is in Redis ride in the next. Resolves once the card's jobs exist.
 */
export function queueCardJobsSoon(ctx: IntakeCtx, item: IntakeCard): Promise<void> {
  let drain = drains.get(ctx.queues);
  if (!drain) {
    drain = { pending: [], running: undefined };
    drains.set(ctx.queues, drain);
  }
  const d = drain;
  return new Promise<void>((resolve, reject) => {
    d.pending.push({ item, done: (err) => (err === undefined ? resolve() : reject(err)) });
    d.running ??= new Promise<void>((r) => setImmediate(r)).then(() => runDrain(ctx, d));
  });
}

async function runDrain(ctx: IntakeCtx, d: Drain): Promise<void> {
  try {
    while (d.pending.length > 0) {
      const batch = d.pending.splice(0, MAX_BATCH);
      try {
        await queueCardJobs(
          ctx,
          batch.map((w) => w.item),
        );
        for (const w of batch) w.done();
      } catch (err) {
        for (const w of batch) w.done(err ?? new Error('queueing failed'));
      }
    }
  } finally {
    d.running = undefined;
  }
}

/** Waits until this context has no card waiting for its jobs (a graceful shutdown's last step). */
export async function intakeSettled(ctx: Pick<Ctx, 'queues'>): Promise<void> {
  const d = drains.get(ctx.queues);
  while (d?.running) await d.running;
}

/**
 * Takes up to ARGV[3] entries due by ARGV[1] and leases them until ARGV[2]; returns id and
 * trace context ('' when none) in turn.
 */
const TAKE = script(`
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
local out = {}
for _, id in ipairs(ids) do
  redis.call('ZADD', KEYS[1], 'XX', ARGV[2], id)
  out[#out + 1] = id
  out[#out + 1] = redis.call('HGET', KEYS[2], id) or ''
end
return out
`);

/** A stored trace context, checked: it came back from Redis (issue 20: read through a schema). */
const TraceCarrierSchema = z.object({
  traceparent: z.string().max(128),
  tracestate: z.string().max(512).optional(),
});

function carrier(ctx: Pick<Ctx, 'log' | 'keys'>, raw: string): TraceCarrier | undefined {
  if (!raw) return undefined;
  const read = readRecord(ctx, TraceCarrierSchema, raw, ctx.keys.cardsIntakeTrace());
  if (!read.ok) return undefined;
  const { traceparent, tracestate } = read.value;
  return tracestate === undefined ? { traceparent } : { traceparent, tracestate };
}

/**
 * Intake entries that are due (new, or a taker's lease ran out), oldest first, with their trace
 * contexts; they are leased to the caller for `INTAKE_LEASE_MS`, so other pumps leave them alone.
 */
export async function takeIntake(
  ctx: Pick<Ctx, 'redis' | 'keys' | 'now' | 'log'>,
  limit: number,
): Promise<{ cardId: string; trace: TraceCarrier | undefined }[]> {
  const now = ctx.now();
  const keys = [ctx.keys.cardsIntake(), ctx.keys.cardsIntakeTrace()];
  const flat = (await runScript(ctx.redis, TAKE, keys, [now, now + INTAKE_LEASE_MS, limit])) as string[];
  const out: { cardId: string; trace: TraceCarrier | undefined }[] = [];
  for (let i = 0; i < flat.length; i += 2)
    out.push({ cardId: flat[i] as string, trace: carrier(ctx, flat[i + 1] ?? '') });
  return out;
}

/** Blocks up to `seconds` on `blocking` (a connection of its own) until an ingest signals a new card. */
export async function awaitIntakeSignal(
  ctx: Pick<Ctx, 'keys'>,
  blocking: Ctx['redis'],
  seconds: number,
): Promise<void> {
  await blocking.blpop(ctx.keys.cardsIntakeSignal(), seconds);
}

/** Drops intake entries whose card is gone (expired) or unreadable: no job could route them. */
export async function dropFromIntake(ctx: Pick<Ctx, 'redis' | 'keys'>, cardIds: string[]): Promise<void> {
  if (cardIds.length === 0) return;
  await ctx.redis
    .multi()
    .zrem(ctx.keys.cardsIntake(), ...cardIds)
    .hdel(ctx.keys.cardsIntakeTrace(), ...cardIds)
    .exec();
}
