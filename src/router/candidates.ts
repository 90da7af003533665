import type { Ctx } from '../context.ts';
import { addQueuedJob } from '../store/queued-job.ts';
import { moveIntoBatch } from '../store/take-batch.ts';
import { withTraceContext } from '../tracing/job-context.ts';

/** How long a main-session turn waits for more candidates to arrive, so a burst is one request. */
export const MAIN_DEBOUNCE_MS = 100;

/**
 * Adds a card to the candidates that wait for the main session (R-B1), with the hand-back
 * reasons it carries, and queues a main turn (`scheduleMainTurn`).
 */
export async function addCandidate(
  ctx: Pick<Ctx, 'redis' | 'keys' | 'queues' | 'now'>,
  cardId: string,
): Promise<void> {
  await ctx.redis.zadd(ctx.keys.candidates(), 'NX', ctx.now(), cardId);
  await scheduleMainTurn(ctx);
}

/**
 * Queues a main-session turn (`addQueuedJob`): nothing when one waits (it takes every candidate
 * when it starts); when one runs, the next is queued the moment it finishes.
 */
export async function scheduleMainTurn(
  ctx: Pick<Ctx, 'redis' | 'keys' | 'queues'>,
  delayMs = MAIN_DEBOUNCE_MS,
): Promise<void> {
  await addQueuedJob(ctx.redis, {
    seq: ctx.keys.mainSeq(),
    queue: ctx.queues.main,
    idPrefix: 'main',
    dedupId: 'main',
    name: 'main',
    data: withTraceContext({}),
    opts: {
      delay: delayMs,
      attempts: 5,
      backoff: { type: 'exponential', delay: 1000 },
      removeOnComplete: { age: 3600 },
      removeOnFail: false,
    },
  });
}

/**
 * Takes every waiting candidate into one main-session batch (R-B1: one turn decides them all).
 * The batch is stored under the turn id first, so a resumed turn sees the same cards; candidates
 * arriving later wait for the next turn.
 */
export function takeCandidates(ctx: Pick<Ctx, 'redis' | 'keys'>, turnId: string): Promise<string[]> {
  return moveIntoBatch(
    ctx.redis,
    { key: ctx.keys.candidates(), type: 'zset' },
    ctx.keys.mainBatch(turnId),
    86400,
  );
}

/** Whether candidates wait for the main session. */
export async function hasCandidates(ctx: Pick<Ctx, 'redis' | 'keys'>): Promise<boolean> {
  return (await ctx.redis.zcard(ctx.keys.candidates())) > 0;
}

/**
 * Puts a turn's batch back among the candidates (no model to decide them) and drops the batch —
 * one MULTI, so a card is never in neither.
 */
export async function returnCandidates(
  ctx: Pick<Ctx, 'redis' | 'keys' | 'now'>,
  turnId: string,
  ids: Iterable<string>,
): Promise<void> {
  const tx = ctx.redis.multi();
  for (const id of ids) tx.zadd(ctx.keys.candidates(), 'NX', ctx.now(), id);
  await tx.del(ctx.keys.mainBatch(turnId)).exec();
}

/** Forgets a finished turn's batch: its cards were decided, or went back as candidates. */
export async function dropMainBatch(ctx: Pick<Ctx, 'redis' | 'keys'>, turnId: string): Promise<void> {
  await ctx.redis.del(ctx.keys.mainBatch(turnId));
}
