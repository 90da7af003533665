import type { Job } from 'bullmq';
import type { Ctx } from '../../context.ts';
import type { Fence } from '../../store/fence.ts';
import { withFencedLease } from '../../store/fenced-lease.ts';
import { waitForLapse } from '../../store/lapse-wait.ts';

/** How long the lock outlives a main turn whose worker died (or froze) without renewing it. */
const LOCK_MS = 10 * 60_000;

/**
 * The owner of `mainLock` and `mainEpoch` (issue 20, R-B1): one main-session turn at a time per
 * deployment, as a fenced lease (issue 46, `src/store/fenced-lease.ts`). The same turn coming
 * back (its job resumed elsewhere after its worker stopped renewing) takes it over with a new
 * token, and the earlier runner's effects are refused from then on; another turn gets `'locked'`.
 */
export function withMainLock<T>(
  ctx: Pick<Ctx, 'redis' | 'keys' | 'queues' | 'config' | 'log'>,
  turnId: string,
  fn: (fence: Fence) => Promise<T>,
): Promise<T | 'locked' | 'superseded'> {
  const spec = {
    key: ctx.keys.mainLock(),
    epochKey: ctx.keys.mainEpoch(),
    owner: turnId,
    ttlMs: LOCK_MS,
    renewEveryMs: Math.min(LOCK_MS / 3, ctx.config.JOB_LOCK_MS / 2),
  };
  return withFencedLease(ctx, spec, fn);
}

/** A main job that found another holding the lock waits for it to lapse (`waitForLapse`). */
export const waitForMainLock = (ctx: Pick<Ctx, 'redis' | 'keys' | 'config'>, job: Job, token?: string) =>
  waitForLapse(ctx, ctx.keys.mainLock(), job, token);
