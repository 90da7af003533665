import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../kit/app.ts';
import { type RecordedRequest, text, toolCalls } from '../../kit/fake-llm.ts';
import { type LocalSentinel, startRedisSentinel } from '../../kit/redis-topologies.ts';
import { cardsIn, continues, openAll, roleOf } from '../../kit/scripted-model.ts';
import { startWorld, type World } from '../executor/harness.ts';
import { botMessages, localMessage, send, ticketOpenedBy } from '../routing/helpers.ts';

/**
 * Issue 19: `REDIS_URL=redis+sentinel://…/primary` — the bot finds the primary through Sentinel,
 * and after the primary dies and Sentinel promotes its replica, the bot carries on against it.
 */
describe('through Redis Sentinel (issue 19)', () => {
  let sentinel: LocalSentinel;
  let w: World;
  let first = '';
  beforeAll(async () => {
    sentinel = await startRedisSentinel();
    w = await startWorld({ REDIS_URL: sentinel.url });
    // Every request is acknowledged with its own text, so each test finds its own reply.
    w.llm.respond((req: RecordedRequest) => {
      if (roleOf(req) === 'main')
        return req.messages.at(-1)?.role === 'tool' ? text('Routed.') : openAll(req);
      if (continues(req)) return text('Done for now.');
      const card = cardsIn(req)[0] ?? '';
      const asked = /text:\n(.*)/.exec(JSON.stringify(req.messages.at(-1)?.content ?? ''))?.[1] ?? '';
      return toolCalls(['reply', { to: card, text: `On it: ${asked.slice(0, 30).replace(/\\n.*/, '')}` }]);
    });
  }, 60_000);
  afterAll(async () => {
    // Seen in a full CI run (2026-12-01) and in a four-worker run here (2026-12-03, load 6–10):
    // the close after the fail-over outlived its hook timeout, at "the workers". A worker closed
    // while its connections still waited to reconnect never finished (ioredis never ends a
    // connection disconnected in that state, and BullMQ waits for it to end); `closeWorker` and
    // the intake pump's stop no longer wait on such a connection (issue 46 item 7,
    // test/faults/close-while-redis-away.test.ts). A close still running after 20 s names its step.
    const slow = setTimeout(() => {
      process.stderr.write(`sentinel-flows: the close is still running after 20 s, at ${w.app.closing()}\n`);
      // Which jobs are still active, and what their workers' connections are doing (for the next
      // one to find the cause: it passed alone nine times here and hung once in a full run).
      void (async () => {
        for (const [name, q] of Object.entries(w.app.ctx.queues)) {
          const active = await q.getJobs(['active']).catch(() => []);
          if (active.length)
            process.stderr.write(
              `sentinel-flows: ${name} active: ${active.map((j) => `${j.name}/${j.id} (attempt ${j.attemptsStarted})`).join(', ')}\n`,
            );
        }
      })().catch(() => undefined);
    }, 20_000);
    try {
      await w?.close();
    } finally {
      clearTimeout(slow);
    }
    await sentinel?.stop();
  }, 60_000);
  const acked = (chat: string) =>
    waitFor(
      async () => (await botMessages(w.app.ctx, chat)).find((m) => m.op === 'local.reply'),
      `the acknowledgement in ${chat}`,
      30_000,
    );

  it('issue 19 / R-B1 / R-C2: a request is routed and acknowledged with the store found through Sentinel', async () => {
    const card = await send(w.app.ctx, localMessage('Please fix the footer', { chat: 'before' }));
    first = await ticketOpenedBy(w.app.ctx, card);
    expect((await acked('before')).text).toMatch(/^On it: /);
  });

  it('issue 19: the primary killed, Sentinel promotes the replica, and the next request is handled there', async () => {
    if (!first) {
      const card = await send(w.app.ctx, localMessage('Please fix the sidebar', { chat: 'first' }));
      first = await ticketOpenedBy(w.app.ctx, card);
    }
    await sentinel.failOver();
    const card = await waitFor(
      () => send(w.app.ctx, localMessage('Please fix the header', { chat: 'after' })).catch(() => undefined),
      'a card stored on the new primary',
      30_000,
    );
    // The replica had the data: the ticket counter carried on.
    expect(await ticketOpenedBy(w.app.ctx, card)).not.toBe(first);
    expect((await acked('after')).text).toMatch(/^On it: /);
    const role = await w.app.ctx.redis.call('ROLE');
    expect((role as [string])[0]).toBe('master');
  }, 90_000);
});
