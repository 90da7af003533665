import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCard } from '../../../src/cards/ingest.ts';
import { waitFor } from '../../kit/app.ts';
import {
  cardAction,
  groupMention,
  messageEvent,
  p2pMessage,
  sendFeishuEvent,
  threadReply,
} from '../../kit/feishu-webhook.ts';
import { ENCRYPT_KEY, type FeishuHarness, startFeishuHarness, storedCardIds } from './harness.ts';

describe('Feishu webhook → trigger cards (R-A1, R-A3)', () => {
  let h: FeishuHarness;
  const send = (event: unknown) => sendFeishuEvent(h.hook, event, { encryptKey: ENCRYPT_KEY });
  beforeEach(async () => {
    h = await startFeishuHarness();
  });
  afterEach(() => h.close());

  it('R-A1: a signed, encrypted @-mention gives one stored card, one routing job and one "seen" reaction', async () => {
    const event = groupMention('please fix acme/app#12', h.feishu.bot.openId, { messageId: 'om_req_1' });
    const res = await send(event);
    expect(res.status).toBe(200);
    const ids = await storedCardIds(h.app);
    expect(ids).toHaveLength(1);
    const card = await loadCard(h.app.ctx, ids[0] ?? '');
    expect(card).toMatchObject({
      source: 'feishu',
      kind: 'message',
      eventId: event.header.event_id,
      request: true,
      text: 'please fix acme/app#12',
      author: { id: 'ou_alice', type: 'person' },
      origin: { source: 'feishu', chatId: 'oc_team', chatType: 'group', messageId: 'om_req_1' },
      refs: [{ type: 'issue', repo: 'acme/app', number: 12 }],
    });
    // Issue 18: the 200 means the card is durable in the intake; a worker's pump queues its jobs.
    const job = await waitFor(() => h.app.ctx.queues.route.getJob(card?.id ?? ''), 'the routing job');
    expect(job.data).toEqual({ cardId: card?.id });
    await waitFor(() => h.feishu.reactions.find((r) => r.messageId === 'om_req_1'), 'the seen reaction');
    expect(h.feishu.reactions.filter((r) => r.messageId === 'om_req_1')).toEqual([
      expect.objectContaining({ emoji: 'OnIt' }),
    ]);
  });

  it('issue 31: a message sent longer ago than the dedupe window is refused as a replay, nothing stored', async () => {
    const before = (await storedCardIds(h.app)).length;
    const old = groupMention('please fix it', h.feishu.bot.openId, { messageId: 'om_old' });
    old.event.message.create_time = String(Date.now() - 5 * 24 * 3600 * 1000);
    expect((await send(old)).status).toBe(200);
    const fresh = groupMention('please fix it', h.feishu.bot.openId, { messageId: 'om_fresh' });
    fresh.event.message.create_time = String(Date.now() - 3 * 24 * 3600 * 1000);
    expect((await send(fresh)).status).toBe(200);
    const cards = await Promise.all((await storedCardIds(h.app)).map((id) => loadCard(h.app.ctx, id)));
    expect(cards.length).toBe(before + 1);
    expect(cards.map((c) => (c?.origin.source === 'feishu' ? c.origin.messageId : ''))).not.toContain(
      'om_old',
    );
  });

  it('R-A1: the same delivery twice, and ten times concurrently, stores one card and reacts once', async () => {
    const before = (await storedCardIds(h.app)).length;
    const twice = groupMention('again', h.feishu.bot.openId, { messageId: 'om_dup_2' });
    expect((await send(twice)).status).toBe(200);
    expect((await send(twice)).status).toBe(200);
    const tenfold = groupMention('storm', h.feishu.bot.openId, { messageId: 'om_dup_10' });
    const answers = await Promise.all(Array.from({ length: 10 }, () => send(tenfold)));
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect((await storedCardIds(h.app)).length).toBe(before + 2);
    // Whatever the router did with them, there is one routing job per card.
    const routeJobs = async () =>
      Object.values(await h.app.ctx.queues.route.getJobCounts()).reduce((a, b) => a + b, 0);
    await waitFor(async () => (await routeJobs()) >= before + 2, 'a routing job per card');
    await waitFor(() => h.feishu.reactions.some((r) => r.messageId === 'om_dup_10'), 'the seen reaction');
    await new Promise((r) => setTimeout(r, 300));
    expect(await routeJobs()).toBe(before + 2);
    expect(h.feishu.reactions.filter((r) => r.messageId === 'om_dup_2')).toHaveLength(1);
    expect(h.feishu.reactions.filter((r) => r.messageId === 'om_dup_10')).toHaveLength(1);
  });

  it('R-A1: a direct message is a request without any mention', async () => {
    const event = p2pMessage('can you look at https://github.com/acme/app/pull/7', { messageId: 'om_p2p' });
    await send(event);
    const card = await cardFor(event.header.event_id);
    expect(card).toMatchObject({
      request: true,
      origin: { chatType: 'p2p' },
      refs: [{ type: 'pr', repo: 'acme/app', number: 7 }],
    });
  });

  it('R-A1: group chatter without a mention and outside any thread produces no card', async () => {
    const before = await storedCardIds(h.app);
    const res = await send(messageEvent({ text: 'lunch?', otherMentions: [['ou_bob', 'Bob']] }));
    expect(res.status).toBe(200);
    expect(await storedCardIds(h.app)).toEqual(before);
  });

  it('R-A3: a thread reply without a mention is kept as a non-request card carrying its thread refs', async () => {
    const event = threadReply('looks good', 'om_root_9', { parentId: 'om_parent_9', threadId: 'omt_9' });
    await send(event);
    const card = await cardFor(event.header.event_id);
    expect(card).toMatchObject({
      request: false,
      replyTo: 'om_parent_9',
      origin: { rootId: 'om_root_9', threadId: 'omt_9' },
      refs: [
        { type: 'message', id: 'om_parent_9' },
        { type: 'message', id: 'om_root_9' },
        { type: 'thread', id: 'omt_9' },
      ],
    });
  });

  it('R-A2: a bot-authored message is a card with author type bot, no request and no reaction', async () => {
    const event = groupMention('build finished', h.feishu.bot.openId, {
      senderType: 'app',
      senderOpenId: 'ou_other_bot',
      messageId: 'om_from_bot',
    });
    await send(event);
    const card = await cardFor(event.header.event_id);
    expect(card).toMatchObject({ request: false, author: { type: 'bot', id: 'ou_other_bot' } });
    await new Promise((r) => setTimeout(r, 300));
    expect(h.feishu.reactions.filter((r) => r.messageId === 'om_from_bot')).toEqual([]);
  });

  it('R-A3: a post with mentions reads as text: names in, the bot mention out, the title kept', async () => {
    const content = JSON.stringify({
      title: 'Release',
      content: [
        [
          { tag: 'at', user_id: '@_user_1', user_name: 'Switchyard' },
          { tag: 'text', text: ' ship it with ' },
          { tag: 'at', user_id: '@_user_2', user_name: 'Bob' },
        ],
        [{ tag: 'a', text: 'the PR', href: 'https://github.com/acme/app/pull/3' }],
      ],
    });
    const event = messageEvent({
      messageType: 'post',
      content,
      mentionOpenId: h.feishu.bot.openId,
      otherMentions: [['ou_bob', 'Bob']],
    });
    await send(event);
    expect(await cardFor(event.header.event_id)).toMatchObject({
      request: true,
      title: 'Release',
      text: 'ship it with @Bob\nthe PR (https://github.com/acme/app/pull/3)',
      refs: [{ type: 'pr', repo: 'acme/app', number: 3 }],
    });
  });

  it('R-A3: text over 4,000 characters is cut, points at its resource, and the whole is kept', async () => {
    const long = `${'word '.repeat(1500)}end`;
    const event = p2pMessage(long);
    await send(event);
    const card = await cardFor(event.header.event_id);
    expect(card?.text.length).toBeLessThanOrEqual(4000);
    expect(card?.truncated).toEqual({ resource: `/api/cards/${card?.id}/text`, totalChars: long.length });
    expect(await h.app.ctx.redis.get(h.app.ctx.keys.cardFull(card?.id ?? ''))).toBe(long);
  });

  it('R-A1: a card button press becomes a card_action card with the button value and the card message ref', async () => {
    const event = cardAction({ value: { action: 'pause' }, openMessageId: 'om_card_1' });
    const res = await send(event);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
    expect(await cardFor(event.header.event_id)).toMatchObject({
      kind: 'card_action',
      action: 'button:pause',
      author: { id: 'ou_alice', type: 'person' },
      refs: [{ type: 'message', id: 'om_card_1' }],
      request: false,
    });
  });

  async function cardFor(eventId: string) {
    for (const id of await storedCardIds(h.app)) {
      const card = await loadCard(h.app.ctx, id);
      if (card?.eventId === eventId) return card;
    }
    return undefined;
  }
});
