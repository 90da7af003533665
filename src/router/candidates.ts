import type { Ctx } from '../context.ts';

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
export async function takeCandidates(ctx: Pick<Ctx, 'redis' | 'keys'>, turnId: string): Promise<string[]> {
  const ids = (await ctx.redis.eval(
    `local b = redis.call('LRANGE', KEYS[2], 0, -1)
     if #b > 0 then return b end
     local ids = redis.call('ZRANGE', KEYS[1], 0, -1)
     if #ids == 0 then return ids end
     redis.call('RPUSH', KEYS[2], unpack(ids))
     redis.call('EXPIRE', KEYS[2], 86400)
     redis.call('DEL', KEYS[1])
     return ids`,
    2,
    ctx.keys.candidates(),
    ctx.keys.mainBatch(turnId),
  )) as string[];
  return ids;
}
