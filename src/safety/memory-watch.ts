import type { Ctx } from '../context.ts';
import { type MemoryHeadroom, readMemoryHeadroom } from '../store/memory-headroom.ts';

type WatchCtx = Pick<Ctx, 'redis' | 'config' | 'log' | 'metrics'>;

/**
 * Issue 31: watches Redis's memory headroom every `REDIS_MEMORY_WATCH_MS`, so a deployment hears
 * of a filling Redis before `noeviction` refuses its writes (a refused write is a lost webhook or
 * a failed turn). Past `REDIS_MEMORY_WARN_PERCENT` each check logs a warning; the share used is
 * the gauge `switchyard_redis_memory_used_ratio`. Where no limit is known (`maxmemory` 0 and no
 * `REDIS_MEMORY_LIMIT_MB`) it says so once and keeps looking, in case a limit is set later.
 */
export function startMemoryWatch(ctx: WatchCtx, everyMs = ctx.config.REDIS_MEMORY_WATCH_MS) {
  let saidUnbounded = false;
  const check = async (): Promise<MemoryHeadroom | undefined> => {
    try {
      const headroom = await readMemoryHeadroom(ctx);
      report(ctx, headroom, !saidUnbounded);
      if (headroom.kind === 'unbounded') saidUnbounded = true;
      return headroom;
    } catch (err) {
      ctx.log.warn({ err }, 'redis memory check failed');
      return undefined;
    }
  };
  void check();
  const timer = setInterval(() => void check(), everyMs);
  timer.unref();
  return { check, stop: async () => clearInterval(timer) };
}

function report(ctx: WatchCtx, h: MemoryHeadroom, firstUnbounded: boolean): void {
  if (h.kind === 'unbounded') {
    if (firstUnbounded)
      ctx.log.info(
        { usedBytes: h.usedBytes },
        'redis memory headroom not watched: maxmemory is 0 and REDIS_MEMORY_LIMIT_MB is unset',
      );
    return;
  }
  ctx.metrics.redisMemoryUsedRatio.set(h.ratio);
  if (!h.warn) return;
  const percent = Math.round(h.ratio * 1000) / 10;
  ctx.log.warn(
    { usedBytes: h.usedBytes, limitBytes: h.limitBytes, limitFrom: h.limitFrom, percent },
    'redis memory nearly full: at the limit Redis (noeviction) refuses every write',
  );
}
