import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLarkClient } from '../../../src/channels/feishu/lark-client.ts';
import { createLogger } from '../../../src/logger.ts';
import { getMessage, listMessages } from '../../../src/sources/feishu-reads.ts';
import { type FakeFeishu, startFakeFeishu } from '../../kit/fake-feishu.ts';

/** The fake's message reads refuse what Feishu refuses, with its codes (issue 15, R-H6). */
describe('fake Feishu message history (GET /open-apis/im/v1/messages…)', () => {
  let f: FakeFeishu;
  let token = '';
  const get = async (path: string) => {
    const res = await fetch(`${f.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return {
      status: res.status,
      body: (await res.json()) as { code: number; data?: Record<string, unknown> },
    };
  };
  beforeAll(async () => {
    f = await startFakeFeishu();
    const res = await fetch(`${f.url}/open-apis/auth/v3/tenant_access_token/internal`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ app_id: f.appId, app_secret: f.appSecret }),
    });
    token = ((await res.json()) as { tenant_access_token: string }).tenant_access_token;
    for (let i = 0; i < 5; i++)
      f.seedMessage({
        chatId: 'oc_a',
        text: `m${i}`,
        threadId: 'omt_1',
        createTime: 1_700_000_000_000 + i * 60_000,
      });
  });
  afterAll(async () => {
    await f.close();
  });

  it('refuses page_size over 50, a bad container type, and a time range on a thread (400, 230001)', async () => {
    for (const q of [
      'container_id_type=chat&container_id=oc_a&page_size=51',
      'container_id_type=group&container_id=oc_a',
      'container_id_type=thread&container_id=omt_1&start_time=1700000000',
    ]) {
      const r = await get(`/open-apis/im/v1/messages?${q}`);
      expect([r.status, r.body.code], q).toEqual([400, 230001]);
    }
  });

  it('pages with page_token and filters a chat by start_time/end_time in seconds', async () => {
    const client = createLarkClient(
      { FEISHU_APP_ID: f.appId, FEISHU_APP_SECRET: f.appSecret, FEISHU_DOMAIN: f.url },
      createLogger('silent'),
    );
    const first = await listMessages(client, { container: 'chat', id: 'oc_a', pageSize: 2 });
    expect(first.items.map((i) => i.message_id)).toHaveLength(2);
    expect(first.next).toBeDefined();
    const second = await listMessages(client, {
      container: 'chat',
      id: 'oc_a',
      pageSize: 2,
      pageToken: first.next,
    });
    expect(second.items[0]?.message_id).not.toBe(first.items[0]?.message_id);
    const window = await listMessages(client, {
      container: 'chat',
      id: 'oc_a',
      startTime: 1_700_000_060,
      endTime: 1_700_000_120,
    });
    expect(window.items.map((i) => JSON.parse(i.body?.content ?? '{}').text)).toEqual(['m1', 'm2']);
    f.leaveChat('oc_a');
    const id = f.history[0]?.messageId ?? '';
    await expect(getMessage(client, id)).rejects.toMatchObject({ code: 230002 });
  });
});
