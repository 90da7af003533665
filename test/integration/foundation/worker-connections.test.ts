import { Redis } from 'ioredis';
import { expect, it } from 'vitest';
import { startWorkers } from '../../../src/workers.ts';
import { startTestApp, waitFor } from '../../kit/app.ts';
import { redisUrl } from '../../kit/redis.ts';

/** The names of the connections Redis holds open whose name starts with `prefix`. */
async function connectionsNamed(redis: Redis, prefix: string): Promise<string[]> {
  const list = (await redis.client('LIST')) as string;
  return list
    .split('\n')
    .map((line) => /(?:^| )name=(\S*)/.exec(line)?.[1] ?? '')
    .filter((name) => name.startsWith(prefix));
}

/**
 * Issue 32: the workers send their commands on the process's own connection (a duplicate each
 * made every process open 14 connections rather than 8, each with its checks and scripts);
 * BullMQ blocks for jobs on one duplicate per worker, named after the queue. A stopped worker
 * process leaves none of those behind — one left open reconnects forever once Redis goes away,
 * printing every failure raw (seen after the Sentinel test stopped its Redis: "All sentinels are
 * unreachable").
 */
it('the workers share the process connection, and every blocking connection is closed when they stop', async () => {
  const app = await startTestApp({}, { workers: false });
  const probe = new Redis(redisUrl());
  try {
    const started = await startWorkers(app.ctx);
    await Promise.all(started.workers.map((w) => w.waitUntilReady()));
    expect(started.workers.length).toBeGreaterThan(0);
    expect(started.workers.every((w) => w.opts.connection === app.ctx.redis)).toBe(true);
    const prefix = app.ctx.keys.queuePrefix;
    await waitFor(
      async () => (await connectionsNamed(probe, prefix)).length >= started.workers.length,
      'a blocking connection per worker',
      5_000,
    );
    await started.stop();
    // A closed connection leaves Redis's list a moment after its socket closes.
    await waitFor(
      async () => (await connectionsNamed(probe, prefix)).length === 0,
      'every blocking connection closed',
      5_000,
    );
    expect(app.ctx.redis.status).toBe('ready');
  } finally {
    probe.disconnect();
    await app.close();
  }
});

it('workers stopped at once, before their start-up on the shared connection ends, raise nothing when it closes', async () => {
  const app = await startTestApp({}, { workers: false });
  const started = await startWorkers(app.ctx);
  await started.stop();
  // Closing the context ends the shared connection; a worker still checking Redis's version on it
  // would then fail with no error listener left, an uncaught 'error' that vitest reports.
  await app.close();
  await waitFor(() => app.ctx.redis.status === 'end', 'the shared connection ended', 5_000);
});
