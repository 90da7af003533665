import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCard } from '../../../src/cards/ingest.ts';
import { cardAction, groupMention, p2pMessage, sendFeishuEvent } from '../../kit/feishu-webhook.ts';
import { ENCRYPT_KEY, type FeishuHarness, startFeishuHarness, storedCardIds } from './harness.ts';

describe('R-A5: who may trigger from Feishu', () => {
  let h: FeishuHarness;
  const send = (event: unknown) => sendFeishuEvent(h.hook, event, { encryptKey: ENCRYPT_KEY });
  beforeEach(async () => {
    h = await startFeishuHarness({ ALLOWED_USERS: 'feishu:ou_alice', ALLOWED_CHATS: 'feishu:oc_open' });
  });
  afterEach(() => h.close());

  async function cardFor(eventId: string) {
    for (const id of await storedCardIds(h.app)) {
      const card = await loadCard(h.app.ctx, id);
      if (card?.eventId === eventId) return card;
    }
    return undefined;
  }

  it('R-A5: an allowed user mentioning the bot is a request', async () => {
    const event = groupMention('go', h.feishu.bot.openId, { senderOpenId: 'ou_alice' });
    await send(event);
    const card = await cardFor(event.header.event_id);
    expect(card).toMatchObject({ request: true, author: { id: 'ou_alice', type: 'person' } });
    expect(card?.author.role).toBeUndefined();
  });

  it('R-A5: anyone in an allowed chat may ask', async () => {
    const event = groupMention('go', h.feishu.bot.openId, { senderOpenId: 'ou_carol', chatId: 'oc_open' });
    await send(event);
    expect(await cardFor(event.header.event_id)).toMatchObject({ request: true });
  });

  it('R-A5: an outsider still leaves a card, but not a request, marked not_allowed, and gets no reaction', async () => {
    const event = p2pMessage('delete the repo', { senderOpenId: 'ou_mallory', messageId: 'om_mallory' });
    expect((await send(event)).status).toBe(200);
    expect(await cardFor(event.header.event_id)).toMatchObject({
      request: false,
      author: { id: 'ou_mallory', type: 'person', role: 'not_allowed' },
      text: 'delete the repo',
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(h.feishu.reactions.filter((r) => r.messageId === 'om_mallory')).toEqual([]);
  });

  it("R-A5: an outsider's button press is recorded as not_allowed and answered with one polite toast", async () => {
    const event = cardAction({ operatorOpenId: 'ou_mallory', value: 'resume' });
    const res = await send(event);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ toast: { type: 'warning' } });
    expect(await cardFor(event.header.event_id)).toMatchObject({
      kind: 'card_action',
      action: 'button:resume',
      author: { role: 'not_allowed' },
    });
  });
});
