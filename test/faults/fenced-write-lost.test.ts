import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { createFencedWriter } from '../../src/store/fenced-writer.ts';
import { type OwnRedis, startOwnRedis } from './own-redis.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Issue 46 / `sentinel-flows`: a fenced write whose EXEC went out and whose Redis died before the
 * answer. ioredis settles no command it keeps for a resend it will not make, so the write — and
 * the turn and the workers' close behind it — waited for ever. It must fail, saying it was lost.
 */
describe('a fenced write whose Redis dies before the answer', () => {
  let own: OwnRedis | undefined;
  let shared: Redis | undefined;
  afterEach(async () => {
    shared?.disconnect();
    await own?.destroy();
  });

  it('fails with "lost" instead of waiting for ever', async () => {
    own = await startOwnRedis();
    shared = new Redis(own.url, { maxRetriesPerRequest: null });
    await shared.set('epoch', 't1');
    const writer = createFencedWriter(shared);
    // The EXEC runs a script that never returns: the answer can only be lost.
    const write = writer.exec('epoch', 't1', (m) => {
      m.eval('while true do end', 0);
    });
    const outcome = write.then(
      () => 'answered',
      (err: Error) => err.message,
    );
    await sleep(300);
    await own.destroy();
    own = undefined;
    const got = await Promise.race([outcome, sleep(10_000).then(() => 'still waiting')]);
    expect(got).toMatch(/lost before the answer/);
    void writer.close().catch(() => undefined);
  }, 30_000);
});
