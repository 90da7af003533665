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
  it('R-A1: a group @-mention is a request; the bot mention leaves the text, other names stay', () => {
    const out = parseMessageEvent(
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

  it('R-A1: a mention of someone else in a group is not addressed to the bot: no card', () => {
    const out = parseMessageEvent(
      flat(messageEvent({ text: 'hi', mentionOpenId: 'ou_bob', mentionName: 'Bob' })),
      facts(),
    );
    expect(out).toEqual({ kind: 'ignored', reason: 'group chatter' });
  });

  it('R-A1: while the bot identity is unknown, a bot-typed or untyped mention counts', () => {
    const event = flat(messageEvent({ text: 'hi', mentionOpenId: 'ou_whoever' }));
    expect(parseMessageEvent(event, facts({}, false)).kind).toBe('card');
    const typed = flat(messageEvent({ text: 'hi', mentionOpenId: 'ou_whoever' }));
    const first = typed.message.mentions[0];
    if (first) first.mentioned_type = 'user';
    expect(parseMessageEvent(typed, facts({}, false)).kind).toBe('ignored');
  });

  it('R-A1: a direct message is a request; a thread reply is a non-request card with thread refs', () => {
    const dm = parseMessageEvent(flat(p2pMessage('hi')), facts());
    expect(dm.kind === 'card' && dm.draft.request).toBe(true);
    const reply = parseMessageEvent(flat(threadReply('ok', 'om_root')), facts());
    expect(reply.kind === 'card' && reply.draft).toMatchObject({
      request: false,
      refs: [
        { type: 'message', id: 'om_root' },
        { type: 'thread', id: 'omt_om_root' },
      ],
    });
  });

  it('R-A2: our own app is self, another app is bot; neither is a request', () => {
    const own = parseMessageEvent(flat(p2pMessage('x', { senderType: 'app', senderOpenId: BOT })), facts());
    expect(own.kind === 'card' && own.draft.author).toEqual({ id: BOT, type: 'self' });
    const other = parseMessageEvent(
      flat(p2pMessage('x', { senderType: 'app', senderOpenId: 'ou_ci' })),
      facts(),
    );
    expect(other.kind === 'card' && other.draft).toMatchObject({ request: false, author: { type: 'bot' } });
  });

  it('R-A5: outside both allow-lists a person is not_allowed and never a request', () => {
    const out = parseMessageEvent(
      flat(p2pMessage('x', { senderOpenId: 'ou_eve' })),
      facts({ ALLOWED_USERS: [{ channel: 'feishu', id: 'ou_alice' }] }),
    );
    expect(out.kind === 'card' && out.draft).toMatchObject({
      request: false,
      author: { id: 'ou_eve', role: 'not_allowed' },
    });
    const viaUserId = parseMessageEvent(
      flat(p2pMessage('x')),
      facts({ ALLOWED_USERS: [{ channel: 'feishu', id: 'alice' }] }),
    );
    expect(viaUserId.kind === 'card' && viaUserId.draft.request).toBe(true);
  });

  it('R-A3: non-text messages still say what was sent', () => {
    const img = parseMessageEvent(
      flat(p2pMessage('', { messageType: 'image', content: '{"image_key":"k"}' })),
      facts(),
    );
    expect(img.kind === 'card' && img.draft.text).toBe('[image]');
    const file = parseMessageEvent(
      flat(p2pMessage('', { messageType: 'file', content: '{"file_name":"a.log"}' })),
      facts(),
    );
    expect(file.kind === 'card' && file.draft.text).toBe('[file a.log]');
  });
});
