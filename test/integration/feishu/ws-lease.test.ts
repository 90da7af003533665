import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { holdLease, type LeaseOptions } from '../../../src/channels/feishu/ws/hold-lease.ts';
import { createLogger } from '../../../src/logger.ts';
import { createKeys } from '../../../src/store/keys.ts';
import { waitFor } from '../../kit/app.ts';
import { freshPrefix, ownedPrefixes, redisUrl } from '../../kit/redis.ts';
import { startRedisServer } from '../../kit/redis-server.ts';

/** Prefixes handed to the product as its own; their keys go after the file. */
const ownPrefix = ownedPrefixes();

const log = createLogger('silent');
const connections: Redis[] = [];
afterAll(() => {
  for (const r of connections) r.disconnect();
});

function leaseCtx(url: string, prefix: string) {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, retryStrategy: () => 200 });
  redis.on('error', () => {});
  connections.push(redis);
  return { redis, keys: createKeys(prefix), log };
}

/** A run that records when it started and closed. */
function recorder() {
  const events: { opened: number; closed?: number }[] = [];
  const start: LeaseOptions['start'] = () => {
    const e: { opened: number; closed?: number } = { opened: Date.now() };
    events.push(e);
    return {
      close: () => {
        e.closed = Date.now();
      },
    };
  };
  return { events, start, running: () => events.filter((e) => e.closed === undefined).length };
}

describe('issue 16: the long-connection lease (exactly one holder runs)', () => {
  it('issue 16: of two contenders one runs; on its stop the other takes over at once (released, not expired)', async () => {
    const prefix = ownPrefix();
    const a = recorder();
    const b = recorder();
    const ttlMs = 60_000;
    const first = holdLease(leaseCtx(redisUrl(), prefix), { holder: 'a', ttlMs, start: a.start });
    await waitFor(() => a.running() === 1, 'the first holder');
    const second = holdLease(leaseCtx(redisUrl(), prefix), { holder: 'b', ttlMs: 1000, start: b.start });
    await new Promise((r) => setTimeout(r, 1200));
    expect(b.events).toEqual([]);
    await first.stop();
    expect(a.running()).toBe(0);
    // b looks every 250 ms: it takes over long before a's 60 s lease would have lapsed.
    await waitFor(() => b.running() === 1, 'the take-over after release', 5000);
    await second.stop();
  });

  it('issue 16: a holder whose renewal is refused (the lease is someone else’s) ends its run at once', async () => {
    const prefix = ownPrefix();
    const ctx = leaseCtx(redisUrl(), prefix);
    const a = recorder();
    const held = holdLease(ctx, { holder: 'a', ttlMs: 1500, start: a.start });
    await waitFor(() => a.running() === 1, 'the holder');
    await ctx.redis.set(ctx.keys.feishuWsLease(), 'intruder', 'PX', 60_000);
    await waitFor(() => a.running() === 0, 'the run ended on a refused renewal', 3000);
    expect(held.holding()).toBe(false);
    await held.stop();
    // Its stop never deletes the lease it no longer holds.
    expect(await ctx.redis.get(ctx.keys.feishuWsLease())).toBe('intruder');
  });

  it('issue 16: a holder cut off from Redis ends its run before its lease could lapse (no split brain)', async () => {
    const server = await startRedisServer(['--save', '', '--appendonly', 'no']);
    const a = recorder();
    const ttlMs = 3000;
    // A Redis of the test's own, gone with it: no keys to drop afterwards.
    const held = holdLease(leaseCtx(server.url, freshPrefix()), { holder: 'a', ttlMs, start: a.start });
    try {
      await waitFor(() => a.running() === 1, 'the holder');
      await server.stop();
      const cutAt = Date.now();
      await waitFor(() => a.running() === 0, 'the run ended without Redis', 2 * ttlMs);
      // The lease was last renewed before the cut, so it lapses by cutAt + ttlMs at the latest.
      expect((a.events[0]?.closed ?? 0) - cutAt).toBeLessThan(ttlMs);
    } finally {
      await held.stop();
    }
  });
});
