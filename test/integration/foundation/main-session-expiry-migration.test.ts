import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { createLogger } from '../../../src/logger.ts';
import { createKeys } from '../../../src/store/keys.ts';
import { mainSessionExpiry } from '../../../src/store/migrations/0003-main-session-expiry.ts';
import { MIGRATIONS } from '../../../src/store/migrations/index.ts';
import { ownedPrefixes, testRedis } from '../../kit/redis.ts';

const ownPrefix = ownedPrefixes();
const { redis } = testRedis();
const DAY_S = 24 * 3600;

/** A main turn's session as releases before issue 31 wrote it: four keys, none expiring. */
async function oldMainSession(prefix: string, session: string): Promise<string[]> {
  const base = `${prefix}:session:${session}`;
  const keys = [`${base}:transcript`, `${base}:transcript:meta`, `${base}:revisions`, `${base}:steps`];
  await redis.rpush(keys[0] as string, JSON.stringify({ role: 'user', content: 'route these' }));
  await redis.hset(keys[1] as string, 'step', '1');
  await redis.zadd(keys[2] as string, 3, '3');
  await redis.rpush(keys[3] as string, JSON.stringify({ kind: 'turn', at: 1, index: 0, turnId: 'main-1' }));
  return keys;
}

describe('issue 31: migration 3 gives main-session transcripts the expiry new ones get', () => {
  it('main sessions written without a TTL expire RETENTION_DAYS from the migration; executors’ and set TTLs are left alone; running it again changes nothing', async () => {
    const prefix = ownPrefix();
    const keys = createKeys(prefix);
    const ctx = {
      redis,
      keys,
      config: loadConfig({ RETENTION_DAYS: '10' }),
      log: createLogger('silent'),
      now: () => Date.now(),
    };
    const first = await oldMainSession(prefix, 'main-main-1');
    const second = await oldMainSession(prefix, 'main-main-2');
    const executor = await oldMainSession(prefix, 'exec-T1');
    await redis.expire(second[0] as string, 3600);
    await redis.set(keys.mainSeq(), '2');

    expect(MIGRATIONS.map((m) => m.version)).toContain(mainSessionExpiry.version);
    await mainSessionExpiry.up(ctx);
    for (const key of [...first, ...second.slice(1)]) {
      const ttl = await redis.ttl(key);
      expect(ttl, key).toBeGreaterThan(10 * DAY_S - 60);
      expect(ttl, key).toBeLessThanOrEqual(10 * DAY_S);
    }
    expect(await redis.ttl(second[0] as string)).toBeLessThanOrEqual(3600);
    for (const key of executor) expect(await redis.ttl(key), key).toBe(-1);

    await redis.expire(first[0] as string, 600);
    await mainSessionExpiry.up(ctx);
    expect(await redis.ttl(first[0] as string)).toBeLessThanOrEqual(600);
    expect(await redis.lrange(first[0] as string, 0, -1)).toHaveLength(1);
  });
});
