import { describe, expect, it } from 'vitest';
import { runLoad } from '../../bench/load.ts';
import { redisUrl } from '../kit/redis.ts';

/**
 * Issue 8, the suite's share of the load run (`npm run bench` sends 20,000): 2,000 signed,
 * encrypted Feishu mentions at the highest rate 32 connections reach, into a `ROLE=web` process,
 * with two `ROLE=worker` processes doing the routing and the outbox.
 */
describe('load: 2,000 webhooks, one web and two worker processes', () => {
  it('issue 8: every delivery has exactly one card and one seen reaction; both workers share the work', async () => {
    const r = await runLoad({
      webhooks: 2000,
      concurrency: 32,
      redisUrl: redisUrl(),
      drainTimeoutMs: 30_000,
    });

    expect(r.errors).toEqual({});
    expect(r.cards).toBe(2000);
    expect(r.lostCards).toBe(0);
    expect(r.duplicateCards).toBe(0);
    expect(r.missingReactions).toBe(0);
    expect(r.duplicateReactions).toBe(0);
    expect(r.failedJobs).toBe(0);
    // Both worker processes ran routing and outbox jobs: no one did it all.
    const shares = Object.values(r.sharedBy);
    expect(shares).toHaveLength(2);
    expect(shares.reduce((a, b) => a + b, 0)).toBe(4000);
    expect(Math.min(...shares)).toBeGreaterThan(400);
    // Figures, for the record (bounded loosely: a slow CI still passes, a leak or a hang does not).
    expect(r.p99).toBeLessThan(5000);
    expect(Math.max(r.memory.web, ...r.memory.workers)).toBeLessThan(1024);
    process.stderr.write(
      `load: ${r.rate.toFixed(0)} webhooks/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, peak RSS web ${r.memory.web} MiB, workers ${r.memory.workers.join('/')} MiB\n`,
    );
  }, 120_000);
});
