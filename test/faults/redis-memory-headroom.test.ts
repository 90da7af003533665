import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { checkRedisMemory } from '../../src/doctor/check-redis-memory.ts';
import { sayIn } from '../../src/doctor/doctor-text.ts';
import { createLogger } from '../../src/logger.ts';
import { startMemoryWatch } from '../../src/safety/memory-watch.ts';
import { createMetrics } from '../../src/web/metrics.ts';
import { type OwnRedis, startOwnRedis } from './own-redis.ts';

const say = sayIn('en');
const MB = 1024 * 1024;

/** A watch over `redis` whose log lines land in `lines`; never started on a timer (the test calls `check`). */
function watchOf(redis: Redis, env: Record<string, string>) {
  const lines: { level: number; msg: string; [k: string]: unknown }[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const log = createLogger('info', {}, { destination });
  const config = loadConfig({ REDIS_URL: 'redis://127.0.0.1:1', ...env });
  const metrics = createMetrics();
  const watch = startMemoryWatch({ redis, config, log, metrics }, 3_600_000);
  return { watch, lines, metrics, config };
}

const warnings = (lines: { level: number; msg: string }[]) =>
  lines.filter((l) => l.level === 40 && l.msg.startsWith('redis memory nearly full'));

/**
 * Issue 31: Redis runs `noeviction`, so at `maxmemory` it refuses writes. On a throwaway
 * `redis-server` of the test's own (never the suite's shared Redis) with a small `maxmemory`.
 */
describe('issue 31: Redis memory headroom is watched before writes are refused', () => {
  let own: OwnRedis | undefined;
  let redis: Redis | undefined;
  const stops: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
    redis?.disconnect();
    await own?.destroy();
    own = redis = undefined;
  });

  async function ownRedis(maxmemory: string): Promise<Redis> {
    own = await startOwnRedis();
    redis = new Redis(own.url, { maxRetriesPerRequest: 0 });
    await redis.config('SET', 'maxmemory', maxmemory);
    return redis;
  }

  it('filling a Redis with maxmemory: the log, the gauge and the doctor warn before the first write is refused', async () => {
    const r = await ownRedis(String(8 * MB));
    const { watch, lines, metrics, config } = watchOf(r, { REDIS_MEMORY_WARN_PERCENT: '80' });
    stops.push(watch.stop);
    await watch.check();
    expect(warnings(lines)).toHaveLength(0);
    expect((await checkRedisMemory(config, { redis: r }, say))[0]).toMatchObject({ status: 'ok' });

    const chunk = 'x'.repeat(100 * 1024);
    let warnedAt: number | undefined;
    let doctorAt: number | undefined;
    let refusedAt: number | undefined;
    for (let i = 0; i < 200 && refusedAt === undefined; i++) {
      try {
        await r.set(`fill:${i}`, chunk);
      } catch (err) {
        expect(String(err)).toMatch(/OOM/);
        refusedAt = i;
        break;
      }
      await watch.check();
      if (warnedAt === undefined && warnings(lines).length) warnedAt = i;
      if (
        doctorAt === undefined &&
        (await checkRedisMemory(config, { redis: r }, say))[0]?.status === 'problem'
      )
        doctorAt = i;
    }
    expect(refusedAt).toBeDefined();
    expect(warnedAt).toBeDefined();
    expect(doctorAt).toBeDefined();
    // Warned with room to spare: at least a tenth of the limit (8 writes of 100 kB) before the refusal.
    expect((refusedAt as number) - (warnedAt as number)).toBeGreaterThanOrEqual(8);
    expect(doctorAt).toBe(warnedAt);
    expect(warnings(lines)[0]).toMatchObject({ limitBytes: 8 * MB, limitFrom: 'maxmemory' });
    const gauge = (
      await metrics.registry.getSingleMetricAsString('switchyard_redis_memory_used_ratio')
    ).trim();
    expect(Number(gauge.split('\n').at(-1)?.split(' ')[1])).toBeGreaterThan(0.8);
    const [finding] = await checkRedisMemory(config, { redis: r }, say);
    expect(finding).toMatchObject({ check: 'redis', status: 'problem' });
    expect(finding?.detail).toMatch(/of 8 MB/);
  });

  it('maxmemory 0: REDIS_MEMORY_LIMIT_MB is the limit; without it the watch says once that nothing is watched, and the doctor reports it as off', async () => {
    const r = await ownRedis('0');
    const limited = watchOf(r, { REDIS_MEMORY_LIMIT_MB: '1', REDIS_MEMORY_WARN_PERCENT: '50' });
    stops.push(limited.watch.stop);
    const h = await limited.watch.check();
    expect(h).toMatchObject({ kind: 'measured', limitBytes: MB, limitFrom: 'setting', warn: true });
    expect(warnings(limited.lines)).toHaveLength(2); // the first check at start and this one

    const open = watchOf(r, {});
    stops.push(open.watch.stop);
    await open.watch.check();
    await open.watch.check();
    expect(await open.watch.check()).toMatchObject({ kind: 'unbounded' });
    expect(open.lines.filter((l) => l.msg.startsWith('redis memory headroom not watched'))).toHaveLength(1);
    expect(warnings(open.lines)).toHaveLength(0);
    expect((await checkRedisMemory(open.config, { redis: r }, say))[0]).toMatchObject({ status: 'off' });
  });
});
