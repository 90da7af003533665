import type { Ctx } from '../context.ts';
import { createFence, type Fence } from './fence.ts';
import { FencedError } from './fenced-error.ts';
import { releaseLease, renewLease, takeFencedLease } from './lease.ts';

type LeaseCtx = Pick<Ctx, 'redis' | 'keys' | 'queues' | 'log'>;

/** A fenced lease to hold: its key, its epoch, the owner taking it, how long it lives unrenewed. */
export interface FencedLeaseSpec {
  key: string;
  epochKey: string;
  owner: string;
  ttlMs: number;
  /** How often the holder renews it; a holder that froze longer learns at its first renewal that it lost. */
  renewEveryMs: number;
}

/**
 * Issue 46: runs `fn` holding a fenced lease (`takeFencedLease`), renewed while it runs, with the
 * lease's `Fence` for `fn` to carry to its effects. `'locked'`: another owner holds it.
 * `'superseded'`: the lease was lost to a newer holder — a write was refused, or a renewal found
 * another holder (or none, once it lapsed) and the epoch has moved on — and whatever `fn` threw
 * on its way out is that loss. A fence that gave up because no renewal could reach Redis for as
 * long as the lease lives stops `fn` too, but its error stands (the job retries). The lease is
 * released at the end, if still held.
 */
export async function withFencedLease<T>(
  ctx: LeaseCtx,
  spec: FencedLeaseSpec,
  fn: (fence: Fence) => Promise<T>,
): Promise<T | 'locked' | 'superseded'> {
  const lease = await takeFencedLease(ctx.redis, spec.key, spec.epochKey, spec.owner, spec.ttlMs);
  if (!lease) return 'locked';
  const fence = createFence(ctx, spec.epochKey, lease.token);
  const stopRenewing = keepRenewed(ctx, spec, lease.holder, fence);
  try {
    return await fn(fence);
  } catch (err) {
    // Lost only when the epoch moved on: a fence that gave up on renewals while Redis was away,
    // with nobody newer, fails as before (the job retries) instead of passing as superseded.
    const lost =
      err instanceof FencedError || (fence.signal.aborted && (await epochMoved(ctx, spec, lease.token)));
    if (!lost) throw err;
    ctx.log.warn(
      { key: spec.key, owner: spec.owner, err },
      'lease taken over by a newer holder; this one stops',
    );
    return 'superseded';
  } finally {
    stopRenewing();
    await releaseLease(ctx.redis, spec.key, lease.holder);
  }
}

/** True when the epoch is no longer `token` (a newer holder took the lease); false when unreadable. */
async function epochMoved(ctx: LeaseCtx, spec: FencedLeaseSpec, token: string): Promise<boolean> {
  return ctx.redis.get(spec.epochKey).then(
    (epoch) => epoch !== token,
    () => false,
  );
}

/**
 * Renews the lease every `renewEveryMs`: a renewal that finds another holder (or none) aborts the
 * fence at once; one that cannot reach Redis is tried again, and only once the lease may have
 * lapsed does the fence abort.
 */
function keepRenewed(ctx: LeaseCtx, spec: FencedLeaseSpec, holder: string, fence: Fence): () => void {
  let confirmedAt = Date.now();
  const timer = setInterval(() => {
    renewLease(ctx.redis, spec.key, holder, spec.ttlMs)
      .then((held) => {
        if (held) confirmedAt = Date.now();
        else fence.lose();
      })
      .catch((err: unknown) => {
        ctx.log.warn({ err, key: spec.key }, 'could not renew a lease');
        if (Date.now() - confirmedAt >= spec.ttlMs) fence.lose();
      });
  }, spec.renewEveryMs);
  return () => clearInterval(timer);
}
