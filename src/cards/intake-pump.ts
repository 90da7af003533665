import type { Ctx } from '../context.ts';
import { storeErrorListener } from '../store/redis-down.ts';
import { loadCards } from './card-store.ts';
import { awaitIntakeSignal, dropFromIntake, type IntakeCard, queueCardJobs, takeIntake } from './intake.ts';

const PAGE = 200;
/** How long a pump blocks for a signal before it looks for entries whose lease ran out anyway. */
const IDLE_SECONDS = 1;

/**
 * One pass of the intake pump (issue 18): takes every due intake entry, a page at a time, and
 * creates its card's routing job and "seen" reaction (`queueCardJobs`, which removes it from the
 * intake). An entry whose card is gone (expired) or unreadable is dropped: nothing could route it.
 * Returns how many cards it queued.
 */
export async function pumpIntake(ctx: Ctx): Promise<number> {
  let queued = 0;
  for (;;) {
    const taken = await takeIntake(ctx, PAGE);
    if (taken.length === 0) return queued;
    const loaded = await loadCards(
      ctx,
      taken.map((t) => t.cardId),
    );
    const cards: IntakeCard[] = [];
    const gone: string[] = [];
    loaded.forEach((card, i) => {
      const t = taken[i] as (typeof taken)[number];
      if (card) cards.push({ card, trace: t.trace });
      else gone.push(t.cardId);
    });
    if (gone.length) ctx.log.warn({ cards: gone }, 'intake: cards expired or unreadable before routing');
    await dropFromIntake(ctx, gone);
    await queueCardJobs(ctx, cards);
    queued += cards.length;
    if (taken.length < PAGE) return queued;
  }
}

/**
 * Runs the intake pump in a worker process until stopped: a pass, then a wait on its own
 * connection for the next ingest's signal (or a second, to retake entries whose taker died). Any
 * number of worker processes run one; a lease keeps two from taking the same entries.
 */
export function startIntakePump(ctx: Ctx): { stop: () => Promise<void> } {
  const blocking = ctx.redis.duplicate();
  blocking.on('error', storeErrorListener(ctx.log, ctx.config.REDIS_URL, 'intake pump'));
  let stopped = false;
  // A stop ends the wait itself: a connection disconnected while it waits to reconnect (Redis
  // away, a fail-over) never settles the command it holds (redis/ioredis#1247), and the stop
  // waited for it for ever (issue 46 item 7).
  let wake = () => {};
  const stopping = new Promise<void>((resolve) => {
    wake = resolve;
  });
  const loop = (async () => {
    while (!stopped) {
      try {
        await pumpIntake(ctx);
        if (stopped) break;
        const signal = awaitIntakeSignal(ctx, blocking, IDLE_SECONDS);
        // Left behind by a stop, it may still fail ("Connection is closed"): nobody waits for it then.
        signal.catch(() => {});
        await Promise.race([signal, stopping]);
      } catch (err) {
        if (stopped) break;
        ctx.log.warn({ err }, 'intake pump failed; retrying');
        await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
      }
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      wake();
      blocking.disconnect();
      await loop;
    },
  };
}
