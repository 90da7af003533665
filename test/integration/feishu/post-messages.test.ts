import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueEffect, outboxJobId } from '../../../src/outbox/enqueue.ts';
import { waitFor } from '../../kit/app.ts';
import { type FeishuHarness, startFeishuHarness } from './harness.ts';

describe('issue 16: replies go out as Feishu post messages, so links and code render', () => {
  let h: FeishuHarness;
  beforeAll(async () => {
    h = await startFeishuHarness();
  });
  afterAll(() => h.close());

  const replyTo = (id: string) =>
    waitFor(() => h.feishu.messages.find((m) => m.parentId === id), `the reply to ${id}`);

  it('a Markdown reply is one md node under its language, read with the link rendered', async () => {
    const text = 'Opened [acme/web#12](https://github.com/acme/web/pull/12); run `npm test` to check.';
    await enqueueEffect(h.app.ctx, {
      key: 'test:post-en',
      effect: { op: 'feishu.reply', messageId: 'om_post_en', text },
    });
    const msg = await replyTo('om_post_en');
    expect(msg.msgType).toBe('post');
    expect(JSON.parse(msg.content)).toEqual({ en_us: { content: [[{ tag: 'md', text }]] } });
    expect(msg.text).toBe('Opened acme/web#12; run `npm test` to check.');
  });

  it('a Chinese reply is posted under zh_cn', async () => {
    await enqueueEffect(h.app.ctx, {
      key: 'test:post-zh',
      effect: { op: 'feishu.send', chatId: 'oc_post_zh', text: '已暂停 T9；在有人说“继续”之前不会有动作。' },
    });
    const msg = await waitFor(() => h.feishu.messages.find((m) => m.chatId === 'oc_post_zh'), 'the message');
    expect(Object.keys(JSON.parse(msg.content))).toEqual(['zh_cn']);
  });

  it('issue 46: a reply whose post would pass Feishu’s 30 KB is cut to fit, not refused whole', async () => {
    const text = `${'所有的测试都通过了。'.repeat(600)}\n\n${'Every check passed. '.repeat(1500)}`;
    await enqueueEffect(h.app.ctx, {
      key: 'test:post-long',
      effect: { op: 'feishu.reply', messageId: 'om_long', text },
    });
    const msg = await replyTo('om_long');
    // Feishu's limit is on the request body, as sent.
    const call = h.feishu.calls.find((c) => c.path.endsWith('/om_long/reply') && c.status === 200);
    expect(call?.bytes).toBeLessThanOrEqual(30 * 1024);
    const sent = JSON.parse(msg.content).zh_cn.content[0][0].text as string;
    expect(sent.endsWith('…')).toBe(true);
    expect(text.startsWith(sent.slice(0, -1))).toBe(true);
    expect(sent.length).toBeGreaterThan(10_000);
  });

  it('issue 46: a reply whose content is under 30 KB but whose request body is over is cut, not refused', async () => {
    // Each quote is 2 bytes in the content and 4 in the body that carries it.
    const text = `Quoted: ${'"'.repeat(9000)}`;
    expect(Buffer.byteLength(JSON.stringify({ en_us: { content: [[{ tag: 'md', text }]] } }))).toBeLessThan(
      30 * 1024,
    );
    await enqueueEffect(h.app.ctx, {
      key: 'test:post-quotes',
      effect: { op: 'feishu.reply', messageId: 'om_quotes', text },
    });
    const msg = await replyTo('om_quotes');
    expect(msg.text?.endsWith('…')).toBe(true);
    expect(h.feishu.callsTo(/\/om_quotes\/reply$/).map((c) => c.status)).toEqual([200]);
  });

  it('the fake refuses what Feishu refuses (230001), and such a delivery is given up, not retried', async () => {
    const token = await fetch(`${h.feishu.url}/open-apis/auth/v3/tenant_access_token/internal`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ app_id: h.feishu.appId, app_secret: h.feishu.appSecret }),
    }).then((r) => r.json() as Promise<{ tenant_access_token: string }>);
    const post = (content: unknown) =>
      fetch(`${h.feishu.url}/open-apis/im/v1/messages/om_bad/reply`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.tenant_access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ msg_type: 'post', content: JSON.stringify(content) }),
      }).then(async (r) => ({ status: r.status, code: ((await r.json()) as { code: number }).code }));
    const md = { tag: 'md', text: '**hi**' };
    const refused = { status: 400, code: 230001 };
    expect(await post({ post: { zh_cn: { content: [[md]] } } })).toEqual(refused);
    expect(await post({ en_us: { content: [[md, { tag: 'text', text: 'x' }]] } })).toEqual(refused);
    expect(await post({ en_us: { content: [[{ tag: 'md', content: 'x' }]] } })).toEqual(refused);
    expect(await post({ en_us: { content: [md] } })).toEqual(refused);
    expect(await post({})).toEqual(refused);
    expect(
      await post({ en_us: { title: 'ok', content: [[md], [{ tag: 'a', text: 'l', href: 'https://x' }]] } }),
    ).toEqual({
      status: 200,
      code: 0,
    });
    expect(h.feishu.messages.filter((m) => m.parentId === 'om_bad')).toHaveLength(1);
    h.feishu.fail(1, { status: 400, code: 230001, msg: 'invalid message content' }, /om_refused/);
    await enqueueEffect(h.app.ctx, {
      key: 'test:post-refused',
      effect: { op: 'feishu.reply', messageId: 'om_refused', text: 'x' },
    });
    const job = await waitFor(async () => {
      const j = await h.app.ctx.queues.outbox.getJob(outboxJobId('test:post-refused'));
      return j && (await j.getState()) === 'failed' ? j : undefined;
    }, 'the failed delivery');
    expect(job.attemptsMade).toBeLessThanOrEqual(1);
  });
});
