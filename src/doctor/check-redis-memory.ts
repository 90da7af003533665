import type { Config } from '../config.ts';
import type { Ctx } from '../context.ts';
import { readMemoryHeadroom } from '../store/memory-headroom.ts';
import type { Say } from './doctor-text.ts';
import { type Finding, off, ok, problem } from './finding.ts';

const CHECK = 'redis';
const mb = (bytes: number) => String(Math.round(bytes / (1024 * 1024)));

/**
 * Issue 31: Redis's memory headroom. Under `noeviction` a full Redis refuses every write, so past
 * `REDIS_MEMORY_WARN_PERCENT` of its limit it is a problem now, not at the refusal. Where no limit
 * is known (`maxmemory` 0, `REDIS_MEMORY_LIMIT_MB` unset) it is reported as not watched.
 */
export async function checkRedisMemory(
  config: Config,
  store: Pick<Ctx, 'redis'>,
  say: Say,
): Promise<Finding[]> {
  const h = await readMemoryHeadroom({ ...store, config });
  if (h.kind === 'unbounded') return [off(CHECK, say('redis.memory-unbounded', { used: mb(h.usedBytes) }))];
  const vars = { used: mb(h.usedBytes), limit: mb(h.limitBytes), percent: String(Math.round(h.ratio * 100)) };
  if (h.warn) return [problem(CHECK, say('redis.memory-high', vars), say('redis.memory-high.fix'))];
  return [ok(CHECK, say('redis.memory-ok', vars))];
}
