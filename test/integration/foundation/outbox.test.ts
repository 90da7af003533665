import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enqueueEffect } from '../../../src/outbox/enqueue.ts';
import { startTestApp, type TestApp, waitFor } from '../../kit/app.ts';

describe('outbox (nothing lost, nothing twice)', () => {
  let app: TestApp;
  beforeEach(async () => {
    app = await startTestApp();
  });
  afterEach(() => app.close());

  const chat = async (chatId: string) =>
    (await app.ctx.redis.lrange(app.ctx.keys.localChat(chatId), 0, -1)).map(
      (s) => JSON.parse(s) as { text: string },
    );

  it('delivers a queued reply once, even when the same key is queued three times', async () => {
    const effect = {
      op: 'local.reply' as const,
      chatId: 'c1',
      messageId: 'm1',
      text: 'On it: fixing the login bug.',
    };
    await Promise.all([1, 2, 3].map(() => enqueueEffect(app.ctx, { key: 'reply:k1', effect })));
    await waitFor(async () => (await chat('c1')).length === 1, 'the reply');
    // A later re-queue of a delivered key (its job long gone) is skipped by the sent record.
    const job = await app.ctx.queues.outbox.getJob(
      (await app.ctx.queues.outbox.getJobs(['completed']))[0]?.id ?? '',
    );
    await job?.remove();
    await enqueueEffect(app.ctx, { key: 'reply:k1', effect });
    await waitFor(async () => (await app.ctx.queues.outbox.getCompletedCount()) >= 1, 'the second job');
    await new Promise((r) => setTimeout(r, 100));
    expect(await chat('c1')).toHaveLength(1);
  });

  it('R-D2: a paused ticket sends nothing it had queued, but exempt confirmations go out', async () => {
    await app.ctx.redis.set(app.ctx.keys.pause('T9'), JSON.stringify({ by: 'ada', at: Date.now() }));
    await enqueueEffect(app.ctx, {
      key: 'held',
      ticketId: 'T9',
      effect: { op: 'local.reply', chatId: 'c2', messageId: 'm2', text: 'progress' },
    });
    await enqueueEffect(app.ctx, {
      key: 'confirm',
      ticketId: 'T9',
      exemptFromPause: true,
      effect: { op: 'local.reply', chatId: 'c2', messageId: 'm2', text: 'Paused.' },
    });
    await waitFor(async () => (await chat('c2')).length === 1, 'the confirmation');
    await new Promise((r) => setTimeout(r, 150));
    expect((await chat('c2')).map((m) => m.text)).toEqual(['Paused.']);
  });

  it('a job for a channel that is off fails for good and is kept as failed, not dropped', async () => {
    await enqueueEffect(app.ctx, {
      key: 'gh-off',
      effect: { op: 'github.comment', repo: 'o/r', number: 1, body: 'x' },
    });
    const failed = await waitFor(
      async () => (await app.ctx.queues.outbox.getJobs(['failed']))[0],
      'a failed job',
    );
    expect(failed.failedReason).toMatch(/channel github is off/);
    // The counter is bumped by the worker's `failed` event, just after the job is marked failed.
    const metric = () =>
      app.ctx.metrics.registry.getSingleMetricAsString('switchyard_outbox_deliveries_total');
    await waitFor(
      async () => /channel="github",outcome="failed"} 1/.test(await metric()),
      'the failure to be counted',
    );
  });
});
