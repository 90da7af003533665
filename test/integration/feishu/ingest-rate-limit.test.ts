import { afterEach, describe, expect, it } from 'vitest';
import { metricsText } from '../../kit/app.ts';
import { groupMention, sendFeishuEvent } from '../../kit/feishu-webhook.ts';
import { ENCRYPT_KEY, type FeishuHarness, startFeishuHarness, storedCardIds } from './harness.ts';

describe('issue 31: the ingest rate limits hold for Feishu too', () => {
  let h: FeishuHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });
  const send = (event: unknown) =>
    sendFeishuEvent((h as FeishuHarness).hook, event, { encryptKey: ENCRYPT_KEY });

  it('past INGEST_RATE_PER_AUTHOR a person’s messages are answered 200 and stored nowhere; past INGEST_RATE_PER_REPO a chat’s are', async () => {
    h = await startFeishuHarness(
      { INGEST_RATE_PER_AUTHOR: '2', INGEST_RATE_PER_REPO: '4' },
      { workers: false },
    );
    const bot = h.feishu.bot.openId;
    for (let i = 0; i < 4; i++) {
      const res = await send(
        groupMention(`please look at ${i}`, bot, { messageId: `om_flood_${i}`, senderOpenId: 'ou_flood' }),
      );
      expect(res.status).toBe(200);
    }
    expect(await storedCardIds(h.app)).toHaveLength(2);
    // Other people in the chat go on until the chat's own limit.
    for (let i = 0; i < 4; i++)
      await send(
        groupMention(`and ${i}`, bot, { messageId: `om_other_${i}`, senderOpenId: `ou_person${i}` }),
      );
    expect(await storedCardIds(h.app)).toHaveLength(4);
    // Another chat is not held back.
    await send(
      groupMention('elsewhere', bot, { messageId: 'om_elsewhere', chatId: 'oc_other', senderOpenId: 'ou_x' }),
    );
    expect(await storedCardIds(h.app)).toHaveLength(5);
    const metrics = await metricsText(h.app.url);
    expect(metrics).toMatch(/switchyard_ingest_rate_limited_total\{source="feishu",scope="author"\} 2/);
    expect(metrics).toMatch(/switchyard_ingest_rate_limited_total\{source="feishu",scope="place"\} 2/);
  });
});
