import type { Config } from '../config.ts';
import type { Ctx } from '../context.ts';

const MB = 1024 * 1024;

/**
 * How full Redis is (issue 31). Redis runs `noeviction`, so at `maxmemory` it refuses writes:
 * `measured` gives the used bytes against that limit — or against `REDIS_MEMORY_LIMIT_MB` where
 * `maxmemory` is 0 (a managed service's limit Redis does not know) — and whether the share is past
 * `REDIS_MEMORY_WARN_PERCENT`; `unbounded` means neither limit is known, so nothing can be said.
 */
export type MemoryHeadroom =
  | {
      kind: 'measured';
      usedBytes: number;
      limitBytes: number;
      /** Where the limit came from: Redis's `maxmemory` or the setting. */
      limitFrom: 'maxmemory' | 'setting';
      /** `usedBytes / limitBytes`. */
      ratio: number;
      warn: boolean;
    }
  | { kind: 'unbounded'; usedBytes: number };

type HeadroomCtx = Pick<Ctx, 'redis'> & {
  config: Pick<Config, 'REDIS_MEMORY_WARN_PERCENT' | 'REDIS_MEMORY_LIMIT_MB'>;
};

/** One `INFO memory` (managed services often disable `CONFIG`, never `INFO`). */
export async function readMemoryHeadroom(ctx: HeadroomCtx): Promise<MemoryHeadroom> {
  return headroomFromInfo(await ctx.redis.info('memory'), ctx.config);
}

/** The headroom an `INFO memory` text shows, under the settings' limit and threshold. */
export function headroomFromInfo(info: string, config: HeadroomCtx['config']): MemoryHeadroom {
  const field = (name: string) => Number(new RegExp(`^${name}:(\\d+)`, 'm').exec(info)?.[1] ?? 0);
  const usedBytes = field('used_memory');
  const maxmemory = field('maxmemory');
  const setting = config.REDIS_MEMORY_LIMIT_MB === undefined ? 0 : config.REDIS_MEMORY_LIMIT_MB * MB;
  const limitBytes = maxmemory > 0 ? maxmemory : setting;
  if (limitBytes <= 0) return { kind: 'unbounded', usedBytes };
  const ratio = usedBytes / limitBytes;
  return {
    kind: 'measured',
    usedBytes,
    limitBytes,
    limitFrom: maxmemory > 0 ? 'maxmemory' : 'setting',
    ratio,
    warn: ratio * 100 >= config.REDIS_MEMORY_WARN_PERCENT,
  };
}
