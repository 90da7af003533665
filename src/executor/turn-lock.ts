import type { Ctx } from '../context.ts';
import { createFence, type Fence } from '../store/fence.ts';
import { releaseLease, renewLease, takeFencedLease } from '../store/lease.ts';

/** How long the lock outlives a holder that stopped renewing it (a different job of the ticket waits). */
const LOCK_MS = 60_000;

type LockCtx = Pick<Ctx, 'redis' | 'keys' | 'queues' | 'config' | 'log'>;

/**
 * Runs `fn` holding the ticket's turn lock (one executor turn at a time per ticket; a fenced
 * lease, `src/store/lease.ts`), renewing it while the turn runs. Issue 46: the same turn coming
 * back — its job handed to this worker by BullMQ after the one running it stopped renewing its
 * job lock (it died, or froze) — takes the lock over with a new fencing token; the earlier
 * runner's token is stale from then on, so everything it still tries is refused (`Fence`). A
 * `'superseded'` turn lost the lock to a newer runner: a write was refused, its renewal failed,
 * or it could not renew it for as long as the lock lives. What it did before stays as recorded.
 */
export async function withTurnLock<T>(
  ctx: LockCtx,
  ticketId: string,
  turnId: string,
  fn: (fence: Fence) => Promise<T>,
): Promise<T | 'locked' | 'superseded'> {
  const key = ctx.keys.turnLock(ticketId);
  const epochKey = ctx.keys.turnEpoch(ticketId);
  const lease = await takeFencedLease(ctx.redis, key, epochKey, turnId, LOCK_MS);
  if (!lease) return 'locked';
  const fence = createFence(ctx, epochKey, lease.token);
  const stopRenewing = keepRenewed(ctx, key, lease.holder, fence);
  try {
    return await fn(fence);
  } catch (err) {
    // Whatever a lost turn throws on its way out (a refused write, an aborted call) is that loss.
    if (!fence.signal.aborted) throw err;
    ctx.log.warn({ ticketId, turnId, err }, 'turn taken over by a newer runner; this one stops');
    return 'superseded';
  } finally {
    stopRenewing();
    await releaseLease(ctx.redis, key, lease.holder);
  }
}

/**
 * Renews the lease every half `JOB_LOCK_MS` (at most every third of its life): a runner that
 * froze for longer than BullMQ's job lock may have been replaced, and learns it at its first
 * renewal after waking — the holder differs — and its fence aborts. A renewal that cannot reach
 * Redis is tried again; only once the lease may have lapsed does the fence abort.
 */
function keepRenewed(ctx: LockCtx, key: string, holder: string, fence: Fence): () => void {
  let confirmedAt = Date.now();
  const timer = setInterval(
    () => {
      renewLease(ctx.redis, key, holder, LOCK_MS)
        .then((held) => {
          if (held) confirmedAt = Date.now();
          else fence.lose();
        })
        .catch((err: unknown) => {
          ctx.log.warn({ err, key }, 'could not renew the turn lock');
          if (Date.now() - confirmedAt >= LOCK_MS) fence.lose();
        });
    },
    Math.min(LOCK_MS / 3, ctx.config.JOB_LOCK_MS / 2),
  );
  return () => clearInterval(timer);
}
