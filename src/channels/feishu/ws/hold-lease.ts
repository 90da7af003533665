import type { Ctx } from '../../../context.ts';
import { releaseLease, renewLease, takeLease } from './lease.ts';

/** What runs while the lease is held; `close` must end it at once. */
export interface LeasedRun {
  close(): void;
}

export interface LeaseOptions {
  /** This process's id in the lease (unique per process). */
  holder: string;
  ttlMs: number;
  /** Starts the work once the lease is taken. */
  start: () => LeasedRun;
}

export interface HeldLease {
  /** Ends the work, gives the lease up and stops competing for it (shutdown). */
  stop(): Promise<void>;
  /** Whether this process holds the lease and runs the work now. */
  holding(): boolean;
}

/**
 * Issue 16: runs `start()` in exactly one process of the deployment. Every process tries to take
 * the lease every quarter of its lifetime; the holder renews it every third. Split brain is
 * avoided on the holder's side: it ends the work as soon as a renewal says the lease is gone, and
 * — when Redis does not answer — a fifth of the lifetime *before* the lease could have expired,
 * counted from the last renewal Redis confirmed (measured from when that renewal was sent). So a
 * taker, which needs the key to expire first, never overlaps a holder that keeps its timers.
 */
export function holdLease(ctx: Pick<Ctx, 'redis' | 'keys' | 'log'>, opts: LeaseOptions): HeldLease {
  const { holder, ttlMs } = opts;
  const log = ctx.log.child({ component: 'feishu-ws-lease', holder });
  let run: LeasedRun | undefined;
  let deadline: NodeJS.Timeout | undefined;
  let busy = false;
  let stopped = false;

  const end = (why: string) => {
    if (!run) return;
    clearTimeout(deadline);
    run.close();
    run = undefined;
    log.warn({ why }, 'feishu long connection closed: lease no longer held');
  };
  /** The lease is ours until `sentAt + ttlMs`; stop early enough that no taker can overlap. */
  const confirmed = (sentAt: number) => {
    clearTimeout(deadline);
    const left = sentAt + ttlMs - ttlMs / 5 - Date.now();
    deadline = setTimeout(() => end('renewal not confirmed in time'), Math.max(0, left));
    deadline.unref();
  };
  const startOrRelease = (): LeasedRun | undefined => {
    try {
      const started = opts.start();
      log.info('feishu long connection lease taken');
      return started;
    } catch (err) {
      clearTimeout(deadline);
      log.error({ err }, 'feishu long connection did not start');
      void releaseLease(ctx, holder).catch(() => {});
      return undefined;
    }
  };
  const tick = async () => {
    if (busy || stopped) return;
    busy = true;
    const sentAt = Date.now();
    try {
      if (run) {
        if (await renewLease(ctx, holder, ttlMs)) confirmed(sentAt);
        else end('renewal refused');
      } else if ((await takeLease(ctx, holder, ttlMs)) || (await renewLease(ctx, holder, ttlMs))) {
        // The second test: a lease of ours left from a renewal that was confirmed too late.
        if (stopped) return void (await releaseLease(ctx, holder));
        confirmed(sentAt);
        run = startOrRelease();
      }
    } catch (err) {
      log.warn({ err }, 'feishu long connection lease: Redis did not answer');
    } finally {
      busy = false;
    }
  };
  const renewEvery = setInterval(() => void tick(), ttlMs / 3);
  const takeEvery = setInterval(() => void (run ? undefined : tick()), ttlMs / 4);
  renewEvery.unref();
  takeEvery.unref();
  void tick();
  return {
    holding: () => run !== undefined,
    async stop() {
      stopped = true;
      clearInterval(renewEvery);
      clearInterval(takeEvery);
      clearTimeout(deadline);
      if (run) {
        run.close();
        run = undefined;
      }
      await releaseLease(ctx, holder).catch((err) =>
        log.warn({ err }, 'feishu long connection lease not released'),
      );
    },
  };
}
