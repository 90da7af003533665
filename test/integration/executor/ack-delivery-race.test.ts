import { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Ctx } from '../../../src/context.ts';
import { deliveryLost } from '../../../src/outbox/delivery-lost.ts';
import { enqueueEffect, outboxJobId } from '../../../src/outbox/enqueue.ts';
import { recordSent } from '../../../src/outbox/sent-records.ts';
import { startTestApp, type TestApp } from '../../kit/app.ts';

/**
 * R-C2: an acknowledgement counts unless its reply was lost for good (`deliveryLost`). A reply
 * whose delivery finished while the check looked was once taken for lost — its sent record read
 * before it was written, its job's state after it completed — and the executor's next step was
 * refused ("acknowledge … before working") though the reply had gone out. Seen under load in two
 * tests; here the delivery is made to finish at exactly that moment.
 */

let app: TestApp;
let worker: Worker;

beforeEach(async () => {
  app = await startTestApp({}, { workers: false });
  // A worker that takes jobs only when asked (BullMQ's manual processing): the test is the outbox.
  worker = new Worker(app.ctx.queues.outbox.name, null, {
    connection: app.ctx.redis.duplicate(),
    prefix: app.ctx.keys.queuePrefix,
  });
});
afterEach(async () => {
  await worker.close();
  await app.close();
});

const KEY = 'reply:race-test:0:call-1';

/** Queues a reply and takes its job, as the outbox's worker does when it starts sending it. */
async function replyBeingSent(): Promise<{ finish: () => Promise<void> }> {
  await enqueueEffect(app.ctx, {
    key: KEY,
    effect: { op: 'github.comment', repo: 'acme/web', number: 7, body: 'On it.' },
  });
  const token = 'race-lock';
  const job = await worker.getNextJob(token);
  if (!job) throw new Error('the reply was not queued');
  return {
    // What deliverOne does once GitHub answered: the sent record, then the job completed.
    finish: async () => {
      await recordSent(app.ctx, KEY, { at: Date.now(), id: '901', op: 'github.comment' });
      await job.moveToCompleted({ status: 'sent', id: '901' }, token, false);
    },
  };
}

/** The app's context, but its first EXISTS (the sent-record check) answers and then lets `meanwhile` run. */
function readingThen(meanwhile: () => Promise<void>): Pick<Ctx, 'redis' | 'keys' | 'queues'> {
  let once = false;
  const redis = new Proxy(app.ctx.redis, {
    get(target, prop, receiver) {
      if (prop !== 'exists' || once) return Reflect.get(target, prop, receiver);
      return async (...args: Parameters<Redis['exists']>) => {
        once = true;
        const answer = await target.exists(...args);
        await meanwhile();
        return answer;
      };
    },
  });
  return { redis, keys: app.ctx.keys, queues: app.ctx.queues };
}

describe('an acknowledgement’s delivery finishing while R-C2 looks (deliveryLost)', () => {
  it('is not lost when the reply goes out between the two reads', async () => {
    const sending = await replyBeingSent();
    expect(await deliveryLost(readingThen(sending.finish), KEY)).toBe(false);
    // The delivery did finish between the reads (the check above was not answered before it).
    expect(await app.ctx.queues.outbox.getJobState(outboxJobId(KEY))).toBe('completed');
  });

  it('is not lost while it is being sent, nor once sent; lost when its job completed unsent', async () => {
    const sending = await replyBeingSent();
    expect(await deliveryLost(app.ctx, KEY)).toBe(false);
    await sending.finish();
    expect(await deliveryLost(app.ctx, KEY)).toBe(false);
    // Completed without a sent record (a pause dropped it, before pauses held): lost for good.
    await app.ctx.redis.del(app.ctx.keys.outboxSent(KEY));
    expect(await deliveryLost(app.ctx, KEY)).toBe(true);
  });
});
