import type { Ctx } from '../context.ts';
import { moveIntoBatch } from '../store/take-batch.ts';

/** How long a main-session turn waits for more candidates to arrive, so a burst is one request. */
export const MAIN_DEBOUNCE_MS = 100;

/**
 * Adds a card to the candidates that wait for the main session (R-B1), with the hand-back
 * reasons it carries, and queues a main turn unless one is already queued.
 */
export async function addCandidate(
  ctx: Pick<Ctx, 'redis' | 'keys' | 'queues' | 'now'>,
  cardId: string,
): Promise<void> {
  await ctx.redis.zadd(ctx.keys.candidates(), 'NX', ctx.now(), cardId);
  await scheduleMainTurn(ctx);
}

export async function scheduleMainTurn(
  ctx: Pick<Ctx, 'redis' | 'keys' | 'queues'>,
  delayMs = MAIN_DEBOUNCE_MS,
): Promise<void> {
  if ((await ctx.redis.set(ctx.keys.mainScheduled(), '1', 'EX', 600, 'NX')) !== 'OK') return;
  const n = await ctx.redis.incr(ctx.keys.mainSeq());
  await ctx.queues.main.add(
    'main',
    {},
    {
      jobId: `main-${n}`,
      delay: delayMs,
      attempts: 5,
      backoff: { type: 'exponential', delay: 1000 },
      removeOnComplete: { age: 3600 },
      removeOnFail: false,
    },
  );
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
