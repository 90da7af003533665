import type { Redis } from 'ioredis';
import { expect, it } from 'vitest';
import { startWorkers } from '../../../src/workers.ts';
import { startTestApp, waitFor } from '../../kit/app.ts';

/**
 * A stopped worker process leaves no connection behind: BullMQ never closes a connection it was
 * given, and one left open reconnects forever once Redis goes away, printing every failure raw
 * (seen after the Sentinel test stopped its Redis: "All sentinels are unreachable").
 */
it('every BullMQ worker connection is closed when the workers stop', async () => {
  const app = await startTestApp({}, { workers: false });
  try {
    const started = await startWorkers(app.ctx);
    await Promise.all(started.workers.map((w) => w.waitUntilReady()));
    const own = started.workers.map((w) => w.opts.connection as Redis);
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((c) => c !== app.ctx.redis)).toBe(true);
    await started.stop();
    // A disconnect ends the connection when its socket closes, a moment later.
    await waitFor(() => own.every((c) => c.status === 'end'), 'every worker connection ended', 5_000);
    expect(own.map((c) => c.status)).toEqual(own.map(() => 'end'));
  } finally {
    await app.close();
  }
});
