import { afterEach, describe, expect, it } from 'vitest';
import { RECONNECT_GRACE_MS } from '../../src/store/worker-options.ts';
import { startTestApp, type TestApp } from '../kit/app.ts';
import { type OwnRedis, startOwnRedis } from './own-redis.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The `sentinel-flows` close that outlived its hook (issue 46 item 7): a worker closed while its
 * connections wait to reconnect never finished — BullMQ waits for its blocking connection's `end`,
 * which ioredis never emits for a connection disconnected in that state (redis/ioredis#1247). After
 * a fail-over the connections are in that state for a moment; here Redis stays away, so they stay
 * in it, and the close must still end: forced once `RECONNECT_GRACE_MS` has passed.
 */
describe('closing the workers while Redis is away (issue 46 item 7)', () => {
  let redis: OwnRedis | undefined;
  let app: TestApp | undefined;
  afterEach(async () => {
    await redis?.destroy();
    redis = undefined;
    app = undefined;
  });

  it('the close ends, forced after the grace, instead of waiting for ever', async () => {
    redis = await startOwnRedis();
    app = await startTestApp({ REDIS_URL: redis.url });
    await redis.shutdown();
    // Every connection has lost Redis and waits to reconnect.
    await sleep(500);
    const started = Date.now();
    const closing = app.close().then(() => 'closed');
    const outcome = await Promise.race([
      closing,
      sleep(RECONNECT_GRACE_MS + 15_000).then(() => app?.closing()),
    ]);
    expect(outcome).toBe('closed');
    expect(Date.now() - started).toBeGreaterThanOrEqual(RECONNECT_GRACE_MS - 100);
  }, 60_000);
});
