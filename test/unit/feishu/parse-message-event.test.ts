import { describe, expect, it } from 'vitest';
import { MessageEventSchema } from '../../../src/channels/feishu/event-schemas.ts';
import type { FeishuFacts } from '../../../src/channels/feishu/facts.ts';
import { parseMessageEvent } from '../../../src/channels/feishu/parse-message-event.ts';
import { groupMention, messageEvent, p2pMessage, threadReply } from '../../kit/feishu-webhook.ts';

const BOT = 'ou_bot';
const facts = (over: Partial<FeishuFacts['config']> = {}, known = true): FeishuFacts => ({
  botOpenId: known ? BOT : undefined,
  config: {
    FEISHU_APP_ID: 'cli_app',
    ALLOWED_USERS: [],
    ALLOWED_CHATS: [],
    CHAT_REPOS: new Map([['oc_team', ['acme/app']]]),
    ...over,
  },
});

/** What the SDK dispatcher hands over: header and event flattened. */
const flat = (e: { header: object; event: object }) => MessageEventSchema.parse({ ...e.header, ...e.event });

describe('parseMessageEvent', () => {
  it('R-A1: a group @-mention is a request; the bot mention leaves the text, other names stay', async () => {
    const out = await parseMessageEvent(
      flat(groupMention('ask @_user_2 about #42', BOT, { otherMentions: [['ou_bob', 'Bob']] })),
      facts(),
    );
    expect(out.kind === 'card' && out.draft).toMatchObject({
      request: true,
      // The kit puts every mention first: `@_user_1 @_user_2 ask @_user_2 about #42`.
      text: '@Bob ask @Bob about #42',
      refs: [{ type: 'issue', repo: 'acme/app', number: 42 }],
      facts: { mentionsBot: true, messageType: 'text' },
    });
  });

  it('R-A1: a mention of someone else in a group is not addressed to the bot: no card', async () => {
    const out = await parseMessageEvent(
      flat(messageEvent({ text: 'hi', mentionOpenId: 'ou_bob', mentionName: 'Bob' })),
      facts(),
    );
    expect(out).toEqual({ kind: 'ignored', reason: 'group chatter' });
  });

  it('R-A1: while the bot identity is unknown, a bot-typed or untyped mention counts', async () => {
    const event = flat(messageEvent({ text: 'hi', mentionOpenId: 'ou_whoever' }));
    expect((await parseMessageEvent(event, facts({}, false))).kind).toBe('card');
    const typed = flat(messageEvent({ text: 'hi', mentionOpenId: 'ou_whoever' }));
    const first = typed.message.mentions[0];
    if (first) first.mentioned_type = 'user';
    expect((await parseMessageEvent(typed, facts({}, false))).kind).toBe('ignored');
  });

  it('R-A1: a direct message is a request; a thread reply is a non-request card with thread refs', async () => {
    const dm = await parseMessageEvent(flat(p2pMessage('hi')), facts());
    expect(dm.kind === 'card' && dm.draft.request).toBe(true);
    const reply = await parseMessageEvent(flat(threadReply('ok', 'om_root')), facts());
    expect(reply.kind === 'card' && reply.draft).toMatchObject({
      request: false,
      refs: [
        { type: 'message', id: 'om_root' },
        { type: 'thread', id: 'omt_om_root' },
      ],
    });
  });

  it('R-A2: our own app is self, another app is bot; neither is a request', async () => {
    const own = await parseMessageEvent(
      flat(p2pMessage('x', { senderType: 'app', senderOpenId: BOT })),
      facts(),
    );
    expect(own.kind === 'card' && own.draft.author).toEqual({ id: BOT, type: 'self' });
    const other = await parseMessageEvent(
      flat(p2pMessage('x', { senderType: 'app', senderOpenId: 'ou_ci' })),
      facts(),
    );
    expect(other.kind === 'card' && other.draft).toMatchObject({ request: false, author: { type: 'bot' } });
  });

  it('R-A5: outside both allow-lists a person is not_allowed and never a request', async () => {
    const out = await parseMessageEvent(
      flat(p2pMessage('x', { senderOpenId: 'ou_eve' })),
      facts({ ALLOWED_USERS: [{ channel: 'feishu', id: 'ou_alice' }] }),
    );
    expect(out.kind === 'card' && out.draft).toMatchObject({
      request: false,
      author: { id: 'ou_eve', role: 'not_allowed' },
    });
    const viaUserId = await parseMessageEvent(
      flat(p2pMessage('x')),
      facts({ ALLOWED_USERS: [{ channel: 'feishu', id: 'alice' }] }),
    );
    expect(viaUserId.kind === 'card' && viaUserId.draft.request).toBe(true);
  });

  it('R-A3: non-text messages still say what was sent (the SDK renders media; the rest are markers)', async () => {
    const text = async (messageType: string, content: unknown) => {
      const out = await parseMessageEvent(
        flat(p2pMessage('', { messageType, content: JSON.stringify(content) })),
        facts(),
      );
      return out.kind === 'card' ? out.draft.text : undefined;
    };
    expect(await text('image', { image_key: 'img_k' })).toBe('![image](img_k)');
    expect(await text('file', { file_key: 'file_k', file_name: 'a.log' })).toBe(
      '<file key="file_k" name="a.log"/>',
    );
    expect(await text('file', { file_name: 'a.log' })).toBe('[file]');
    // Not handed to the SDK (read-message.ts says why): a card, a system message, an unknown type.
    expect(await text('interactive', { elements: [{ tag: 'markdown', content: 'hi' }] })).toBe('[card]');
    expect(await text('system', { template: '{a}{a}', a: 'x' })).toBe('[system]');
    expect(await text('weird', { text: 'read me' })).toBe('[weird]');
  });

  it('R-A3: a 600-byte card of nested buttons costs nothing (the SDK walker takes 2^depth steps)', async () => {
    let node: object = { tag: 'plain_text', content: 'x' };
    for (let i = 0; i < 24; i++) node = { tag: 'button', text: node };
    const start = performance.now();
    const out = await parseMessageEvent(
      flat(p2pMessage('', { messageType: 'interactive', content: JSON.stringify({ elements: [node] }) })),
      facts(),
    );
    expect(out.kind === 'card' && out.draft.text).toBe('[card]');
    // Through the SDK's walker: ~25 s on a 2-core machine (22 levels: 7 s). Linear code takes a
    // millisecond; the bound catches the blow-up, not speed (as in hostile-text-cost.test.ts).
    expect(performance.now() - start).toBeLessThan(2000);
  });

  it('R-A1: mentions: @_user_12 is not the bot @_user_1, a code block keeps its indentation', async () => {
    const event = flat(groupMention('x', BOT));
    const ids = (open_id: string) => ({ open_id, user_id: undefined, union_id: undefined });
    event.message.mentions = [
      { key: '@_user_1', id: ids(BOT), name: 'Bot' },
      { key: '@_user_12', id: ids('ou_zed'), name: 'Zed' },
    ];
    event.message.content = JSON.stringify({ text: '@_user_1 @_user_12 look:\n    indented()' });
    const out = await parseMessageEvent(event, facts());
    expect(out.kind === 'card' && out.draft.text).toBe('@Zed look:\n    indented()');
  });
});
