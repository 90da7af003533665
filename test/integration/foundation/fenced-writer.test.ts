import { afterAll, describe, expect, it } from 'vitest';
import { createFence } from '../../../src/store/fence.ts';
import { FencedError } from '../../../src/store/fenced-error.ts';
import { FENCED_CONNECTIONS, fencedWriterOf } from '../../../src/store/fenced-writer.ts';
import { closeQueues, createQueues } from '../../../src/store/queues.ts';
import { waitFor } from '../../kit/app.ts';
import { testRedis } from '../../kit/redis.ts';

/** Issue 46: the connections fenced writes go on — side by side, and through a brief reconnect. */
describe('the fenced writer (issue 46)', () => {
  const { redis, keys: freshKeys } = testRedis();
  const keys = freshKeys();
  const queues = createQueues(redis, keys.queuePrefix);
  const ctx = { redis, keys, queues };
  afterAll(() => closeQueues(queues));
  const writer = () => fencedWriterOf(queues.outbox, redis);
  /** A fence holding ticket `id`'s epoch at 1. */
  async function fenceOf(id: string) {
    await redis.set(keys.turnEpoch(id), '1');
    return createFence(ctx, keys.turnEpoch(id), '1');
  }

  it("a write held up while it is being built does not hold up another lease's write", async () => {
    const [slow, quick] = await Promise.all([fenceOf('T-slow'), fenceOf('T-quick')]);
    let resume = () => {};
    const held = new Promise<void>((r) => {
      resume = r;
    });
    const slowWrite = slow.exec(async (m) => {
      await held;
      m.rpush(keys.transcript('s-slow'), 'slow');
    });
    let quickDone = false;
    const quickWrite = quick
      .exec((m) => {
        m.rpush(keys.transcript('s-quick'), 'quick');
      })
      .then(() => {
        quickDone = true;
      });
    try {
      await waitFor(() => quickDone, "the other lease's write while the first is held", 5_000);
    } finally {
      resume();
    }
    await Promise.all([slowWrite, quickWrite]);
    expect(await redis.lrange(keys.transcript('s-quick'), 0, -1)).toEqual(['quick']);
    expect(await redis.lrange(keys.transcript('s-slow'), 0, -1)).toEqual(['slow']);
  });

  it('many writes at once, stale and current on the same epochs: each current one lands once, no stale one', async () => {
    const tickets = ['T-m1', 'T-m2', 'T-m3'];
    const current = await Promise.all(tickets.map((t) => fenceOf(t)));
    const stale = tickets.map((t) => createFence(ctx, keys.turnEpoch(t), '0'));
    const list = (t: string) => keys.transcript(`s-${t}`);
    const writes = Array.from({ length: 30 }, (_, i) => {
      const t = i % tickets.length;
      const ticket = tickets[t] ?? '';
      const fence = (i % 2 ? stale : current)[t];
      return fence?.exec((m) => {
        m.rpush(list(ticket), `${i % 2 ? 'stale' : 'current'}-${i}`);
      });
    });
    const settled = await Promise.allSettled(writes);
    settled.forEach((s, i) => {
      if (i % 2) expect(s.status === 'rejected' && s.reason).toBeInstanceOf(FencedError);
      else expect(s.status === 'rejected' ? String(s.reason) : s.status).toBe('fulfilled');
    });
    const landed = (await Promise.all(tickets.map((t) => redis.lrange(list(t), 0, -1)))).flat();
    expect(landed.sort()).toEqual(Array.from({ length: 15 }, (_, i) => `current-${i * 2}`).sort());
    expect(writer().connections().length).toBeLessThanOrEqual(FENCED_CONNECTIONS);
  });

  it('a stale write is refused when the epoch is gone altogether, and the epoch stays gone', async () => {
    const fence = await fenceOf('T-gone');
    await redis.del(keys.turnEpoch('T-gone'));
    const write = fence.exec((m) => {
      m.rpush(keys.transcript('s-gone'), 'late');
    });
    await expect(write).rejects.toThrow(FencedError);
    expect(await redis.exists(keys.turnEpoch('T-gone'), keys.transcript('s-gone'))).toBe(0);
  });

  it('a write while its connection reconnects waits for it and lands once', async () => {
    const fence = await fenceOf('T-reconnect');
    const list = keys.transcript('s-reconnect');
    await fence.exec((m) => {
      m.rpush(list, 'before');
    });
    // Every fenced connection drops; each comes back by itself a moment later.
    const dropped = writer()
      .connections()
      .map((conn) => {
        const closed = new Promise((r) => conn.once('close', r));
        conn.disconnect(true);
        return closed;
      });
    await Promise.all(dropped);
    expect(
      writer()
        .connections()
        .every((c) => c.status !== 'ready'),
    ).toBe(true);
    await fence.exec((m) => {
      m.rpush(list, 'during');
    });
    expect(await redis.lrange(list, 0, -1)).toEqual(['before', 'during']);
  });
});
