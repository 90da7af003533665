import { Queue, Worker } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import { closeWorker } from '../../src/store/worker-options.ts';
import { waitFor } from '../kit/app.ts';
import { testRedis } from '../kit/redis.ts';

const { redis, keys } = testRedis();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * `sentinel-flows` once hung past its hook at "the workers (active jobs finishing)": a graceful
 * close waits for every active job, and one never ended. The close gives active jobs a bounded
 * time, then cuts the worker's connection and leaves the job to the stalled check, as a crash would.
 */
describe('closing a worker whose job never ends', () => {
  const prefix = keys().queuePrefix;
  const queue = new Queue('stuck', { connection: redis.duplicate(), prefix });
  afterAll(async () => {
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
  });

  it('the close ends after the jobs’ grace, and the job is left active for another worker', async () => {
    let started = false;
    const worker = new Worker(
      'stuck',
      async () => {
        started = true;
        await new Promise(() => undefined); // never settles
      },
      { connection: redis.duplicate(), prefix, lockDuration: 5000 },
    );
    await queue.add('forever', {}, { jobId: 'stuck-1' });
    await waitFor(() => started, 'the job running');
    const began = Date.now();
    const outcome = await Promise.race([
      closeWorker(worker, 1000, 500).then(() => 'closed'),
      sleep(10_000).then(() => 'still closing'),
    ]);
    expect(outcome).toBe('closed');
    expect(Date.now() - began).toBeGreaterThanOrEqual(500);
    expect(await queue.getJobState('stuck-1')).toBe('active');
  }, 30_000);
});
