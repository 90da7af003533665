import type { Job } from 'bullmq';
import type { Ctx } from '../context.ts';
import type { Fence } from '../store/fence.ts';
import { withFencedLease } from '../store/fenced-lease.ts';
import { waitForLapse } from '../store/lapse-wait.ts';

/** How long the lock outlives a holder that stopped renewing it (a different job of the ticket waits). */
const LOCK_MS = 60_000;

/**
 * Runs `fn` holding the ticket's turn lock (one executor turn at a time per ticket; a fenced
 * lease, `src/store/fenced-lease.ts`), renewing it while the turn runs. Issue 46: the same turn
 * coming back — its job handed to this worker by BullMQ after the one running it stopped renewing
 * its job lock (it died, or froze) — takes the lock over with a new fencing token; the earlier
 * runner's token is stale from then on, so everything it still tries is refused (`Fence`). It is
 * renewed every half `JOB_LOCK_MS`: a runner that froze for longer than BullMQ's job lock may have
 * been replaced, and learns it at its first renewal after waking. A `'superseded'` turn lost the
 * lock to a newer runner; what it did before stays as recorded.
 */
export function withTurnLock<T>(
  ctx: Pick<Ctx, 'redis' | 'keys' | 'queues' | 'config' | 'log'>,
  ticketId: string,
  turnId: string,
  fn: (fence: Fence) => Promise<T>,
): Promise<T | 'locked' | 'superseded'> {
  const spec = {
    key: ctx.keys.turnLock(ticketId),
    epochKey: ctx.keys.turnEpoch(ticketId),
    owner: turnId,
    ttlMs: LOCK_MS,
    renewEveryMs: Math.min(LOCK_MS / 3, ctx.config.JOB_LOCK_MS / 2),
  };
  return withFencedLease(ctx, spec, fn);
}

/** A job that found another turn of the ticket holding the lock waits for it to lapse (`waitForLapse`). */
export const waitForTurnLock = (
  ctx: Pick<Ctx, 'redis' | 'keys' | 'config'>,
  ticketId: string,
  job: Job,
  token?: string,
) => waitForLapse(ctx, ctx.keys.turnLock(ticketId), job, token);
