import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { feishuSenderFor } from '../../../src/channels/feishu/sender.ts';
import { enqueueEffect, outboxJobId } from '../../../src/outbox/enqueue.ts';
import { isDeliveryError } from '../../../src/outbox/errors.ts';
import { waitFor } from '../../kit/app.ts';
import { type FeishuHarness, startFeishuHarness } from './harness.ts';

describe('Feishu outbox sender over the official SDK', () => {
  let h: FeishuHarness;
  beforeEach(async () => {
    h = await startFeishuHarness();
  });
  afterEach(() => h.close());

  const repliesTo = (id: string) => h.feishu.messages.filter((m) => m.parentId === id);
  const callsFor = (id: string) => h.feishu.callsTo(new RegExp(`/messages/${id}/reply$`));

  it('R-A1: a 429 with a rate-limit code, then 200, ends in exactly one delivered reply', async () => {
    h.feishu.fail(1, { status: 429, code: 99991400, headers: { 'x-ogw-ratelimit-reset': '1' } }, /om_rl_1/);
    const at = Date.now();
    await enqueueEffect(h.app.ctx, {
      key: 'test:rl-1',
      effect: { op: 'feishu.reply', messageId: 'om_rl_1', text: 'On it: fixing the login bug.' },
    });
    const [msg] = await waitFor(
      () => (repliesTo('om_rl_1').length ? repliesTo('om_rl_1') : undefined),
      'reply',
      10_000,
    );
    expect(repliesTo('om_rl_1')).toHaveLength(1);
    expect(msg?.text).toBe('On it: fixing the login bug.');
    const calls = callsFor('om_rl_1');
    expect(calls.map((c) => c.status)).toEqual([429, 200]);
    // The server's reset (1 s) is honoured, and both tries carry the same uuid for Feishu's dedupe.
    expect((calls[1]?.at ?? 0) - at).toBeGreaterThanOrEqual(950);
    expect(calls[0]?.body?.uuid).toBe(calls[1]?.body?.uuid);
    expect(String(calls[0]?.body?.uuid).length).toBeLessThanOrEqual(50);
  });

  it('issue 31: an @all the model wrote reaches Feishu as text that pings no one', async () => {
    await enqueueEffect(h.app.ctx, {
      key: 'test:at-all',
      effect: { op: 'feishu.reply', messageId: 'om_at_all', text: 'Deployed. <at user_id="all">所有人</at>' },
    });
    const [msg] = await waitFor(
      () => (repliesTo('om_at_all').length ? repliesTo('om_at_all') : undefined),
      'reply',
    );
    expect(msg?.content).not.toMatch(/<at\b/i);
    expect(msg?.text).toContain('@all');
  });

  it('issue 45: a mention of one person the model wrote (in a reply or a card) reaches Feishu pinging no one', async () => {
    const text = 'Ask <at user_id="ou_cfo">the CFO</at> for the salary table.';
    const card = { elements: [{ tag: 'markdown', content: `cc <at id=ou_ceo></at>` }] };
    await enqueueEffect(h.app.ctx, {
      key: 'test:at-one',
      effect: { op: 'feishu.reply', messageId: 'om_at_one', text },
    });
    await enqueueEffect(h.app.ctx, {
      key: 'test:at-one-card',
      effect: { op: 'feishu.card.reply', messageId: 'om_at_one_card', card },
    });
    const [msg] = await waitFor(
      () => (repliesTo('om_at_one').length ? repliesTo('om_at_one') : undefined),
      'reply',
    );
    const [posted] = await waitFor(
      () => (repliesTo('om_at_one_card').length ? repliesTo('om_at_one_card') : undefined),
      'card reply',
    );
    expect(msg?.content).not.toMatch(/<at\b/i);
    expect(msg?.text).toContain('@the CFO');
    expect(posted?.content).not.toMatch(/<at\b|ou_ceo/i);
  });

  it('R-A1: a 500 and a business rate-limit code (230020) are retried; one message results', async () => {
    h.feishu.fail(1, { status: 500, code: 500 }, /om_5xx/);
    h.feishu.fail(1, { status: 200, code: 230020, msg: 'chat rate limit' }, /om_5xx/);
    await enqueueEffect(h.app.ctx, {
      key: 'test:5xx',
      effect: { op: 'feishu.reply', messageId: 'om_5xx', text: 'done' },
    });
    await waitFor(() => repliesTo('om_5xx').length === 1, 'reply after retries', 15_000);
    expect(callsFor('om_5xx').map((c) => c.status)).toEqual([500, 200, 200]);
  });

  it('R-A1: a permanent 4xx (bot not in chat) fails the job once, kept as failed, nothing sent', async () => {
    h.feishu.fail(1, { status: 400, code: 230002, msg: 'bot is not in the chat' }, /om_gone/);
    await enqueueEffect(h.app.ctx, {
      key: 'test:gone',
      effect: { op: 'feishu.reply', messageId: 'om_gone', text: 'hello?' },
    });
    const job = await waitFor(async () => {
      const j = await h.app.ctx.queues.outbox.getJob(outboxJobId('test:gone'));
      // Read again once failed: the first read may predate the failure's bookkeeping.
      return j && (await j.getState()) === 'failed' ? h.app.ctx.queues.outbox.getJob(j.id ?? '') : undefined;
    }, 'the failed job');
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toMatch(/230002/);
    expect(repliesTo('om_gone')).toEqual([]);
  });

  it('R-A1: replies in a thread, messages to a chat, card replies and card patches reach Feishu as such', async () => {
    const card = { schema: '2.0', body: { elements: [{ tag: 'markdown', content: 'Paused' }] } };
    await enqueueEffect(h.app.ctx, {
      key: 'test:thread',
      effect: { op: 'feishu.reply', messageId: 'om_t', text: 'in thread', inThread: true },
    });
    await enqueueEffect(h.app.ctx, {
      key: 'test:send',
      effect: { op: 'feishu.send', chatId: 'oc_x', text: 'to chat' },
    });
    await enqueueEffect(h.app.ctx, {
      key: 'test:card',
      effect: { op: 'feishu.card.reply', messageId: 'om_c', card },
    });
    await enqueueEffect(h.app.ctx, {
      key: 'test:patch',
      effect: { op: 'feishu.card.patch', messageId: 'om_c2', card },
    });
    await waitFor(
      () =>
        repliesTo('om_t').length &&
        repliesTo('om_c').length &&
        h.feishu.messages.some((m) => m.chatId === 'oc_x') &&
        h.feishu.patches.length,
      'all four effects',
    );
    expect(repliesTo('om_t')).toEqual([
      expect.objectContaining({ inThread: true, text: 'in thread', msgType: 'post' }),
    ]);
    expect(h.feishu.messages.find((m) => m.chatId === 'oc_x')).toMatchObject({
      via: 'create',
      text: 'to chat',
    });
    expect(repliesTo('om_c')).toEqual([expect.objectContaining({ msgType: 'interactive' })]);
    expect(JSON.parse(repliesTo('om_c')[0]?.content ?? '{}')).toEqual(card);
    expect(h.feishu.patches).toEqual([{ messageId: 'om_c2', content: JSON.stringify(card) }]);
  });

  it('R-A1: a refused tenant token is dropped and fetched again on the retry', async () => {
    h.feishu.fail(1, { status: 400, code: 99991663, msg: 'Invalid access token' }, /om_tok/);
    await enqueueEffect(h.app.ctx, {
      key: 'test:tok',
      effect: { op: 'feishu.reply', messageId: 'om_tok', text: 'hi' },
    });
    await waitFor(() => repliesTo('om_tok').length === 1, 'reply after a token refresh', 10_000);
    const [refused, retried] = callsFor('om_tok');
    expect(refused?.status).toBe(400);
    expect(retried?.status).toBe(200);
    // A token was fetched between the refusal and the retry: the refused one was not reused. (Other
    // parts of the product may fetch one at the same moment, so this counts at least one, not one.)
    const fresh = h.feishu
      .callsTo(/tenant_access_token/)
      .filter((c) => c.at >= (refused?.at ?? 0) && c.at <= (retried?.at ?? 0));
    expect(fresh.length).toBeGreaterThanOrEqual(1);
  });

  it('R-A1: the same idempotency key sent twice is one Feishu message (uuid dedupe)', async () => {
    const sender = feishuSenderFor(h.app.ctx.config, h.app.ctx.log);
    const effect = { op: 'feishu.send', chatId: 'oc_dedupe', text: 'once' } as const;
    const a = await sender.deliver(effect, 'test:dedupe', 0);
    const b = await sender.deliver(effect, 'test:dedupe', 1);
    expect(a.id).toBeDefined();
    expect(b.id).toBe(a.id);
    expect(h.feishu.messages.filter((m) => m.chatId === 'oc_dedupe')).toHaveLength(1);
  });

  it('R-A1: failures map to retry or give-up the way the outbox needs', async () => {
    const sender = feishuSenderFor(h.app.ctx.config, h.app.ctx.log);
    h.feishu.fail(1, { status: 429, code: 99991400, headers: { 'retry-after': '3' } }, /om_map/);
    const rate = await sender
      .deliver({ op: 'feishu.react', messageId: 'om_map', emoji: 'OK' }, 'k1', 0)
      .catch((e) => e);
    expect(
      isDeliveryError(rate) && !rate.permanent && rate.retryAfterMs === 3000 && rate.status === 429,
    ).toBe(true);
    h.feishu.fail(1, { status: 400, code: 231001 }, /om_map/);
    const bad = await sender
      .deliver({ op: 'feishu.react', messageId: 'om_map', emoji: 'x' }, 'k2', 0)
      .catch((e) => e);
    expect(isDeliveryError(bad) && bad.permanent).toBe(true);
    const down = feishuSenderFor({ ...h.app.ctx.config, FEISHU_DOMAIN: 'http://127.0.0.1:9' }, h.app.ctx.log);
    const net = await down
      .deliver({ op: 'feishu.react', messageId: 'om_map', emoji: 'OK' }, 'k3', 0)
      .catch((e) => e);
    expect(isDeliveryError(net) && !net.permanent).toBe(true);
  });
});
