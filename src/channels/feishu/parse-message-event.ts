import type { Author, CardDraft, Ref } from '../../cards/card.ts';
import { extractTextRefs } from '../../cards/extract-refs.ts';
import type { ParseOutcome } from '../../cards/parse-outcome.ts';
import { isAllowedOnFeishu, NOT_ALLOWED_ROLE } from './allow-list.ts';
import type { MessageEvent } from './event-schemas.ts';
import type { FeishuFacts } from './facts.ts';
import { isBotMention } from './is-bot-mention.ts';
import { readMessage } from './read-message.ts';

/** The Feishu parser's outcomes: a payload of the wrong shape never gets here (400 in the dispatcher). */
export type MessageParseOutcome = Exclude<ParseOutcome, { kind: 'invalid' }>;

/**
 * `im.message.receive_v1` → a card draft (R-A1, R-A3). Direct chats are always addressed to the
 * bot; in groups a message counts when it @-mentions the bot, or when it sits in a thread or reply
 * chain (kept with `request: false`: routing decides by its refs whether a ticket follows that
 * thread). Other group chatter produces no card.
 */
export async function parseMessageEvent(e: MessageEvent, facts: FeishuFacts): Promise<MessageParseOutcome> {
  const m = e.message;
  const chatType = m.chat_type === 'p2p' ? 'p2p' : 'group';
  // Ours, not the SDK's `mentionedBot`: that one is false while the bot's open_id is unknown.
  const mentionsBot = m.mentions.some((x) => isBotMention(x, facts.botOpenId));
  const inThread = Boolean(m.root_id || m.parent_id || m.thread_id);
  if (chatType === 'group' && !mentionsBot && !inThread) return { kind: 'ignored', reason: 'group chatter' };

  const author = authorOf(e, facts);
  const allowed = author.role !== NOT_ALLOWED_ROLE;
  const { text, title } = await readMessage(m.message_type, m.content, m.mentions, (x) =>
    isBotMention(x, facts.botOpenId),
  );
  const draft: CardDraft = {
    source: 'feishu',
    kind: 'message',
    eventId: e.event_id,
    author,
    origin: {
      source: 'feishu',
      chatId: m.chat_id,
      chatType,
      messageId: m.message_id,
      ...(m.root_id ? { rootId: m.root_id } : {}),
      ...(m.thread_id ? { threadId: m.thread_id } : {}),
    },
    conversation: m.chat_id,
    ...(m.parent_id ? { replyTo: m.parent_id } : {}),
    // R-B8: a mention or a direct message is an explicit request, but only a permitted person's
    // (R-A5); bots never start work (R-A2).
    request: author.type === 'person' && allowed && (chatType === 'p2p' || mentionsBot),
    refs: refsOf(e, text, facts.config.CHAT_REPOS.get(m.chat_id)?.[0]),
    ...(title ? { title } : {}),
    text,
    facts: { messageType: m.message_type, mentionsBot },
  };
  return { kind: 'card', draft };
}

function authorOf(e: MessageEvent, facts: FeishuFacts): Author {
  const ids = e.sender.sender_id;
  const id = ids.open_id ?? ids.user_id ?? ids.union_id ?? 'unknown';
  if (e.sender.sender_type === 'app') {
    const self =
      (facts.botOpenId !== undefined && ids.open_id === facts.botOpenId) ||
      (facts.config.FEISHU_APP_ID !== undefined && Object.values(ids).includes(facts.config.FEISHU_APP_ID));
    return { id, type: self ? 'self' : 'bot' };
  }
  // R-A5: people outside the allow-lists still leave a card (their words are context for
  // tickets they take part in), but marked so routing never lets them start or steer work.
  return isAllowedOnFeishu(facts.config, ids, e.message.chat_id)
    ? { id, type: 'person' }
    : { id, type: 'person', role: NOT_ALLOWED_ROLE };
}

/** The replied-to message, the reply root, the thread, and whatever the text points at. */
function refsOf(e: MessageEvent, text: string, defaultRepo: string | undefined): Ref[] {
  const m = e.message;
  const refs: Ref[] = [];
  if (m.parent_id) refs.push({ type: 'message', id: m.parent_id });
  if (m.root_id && m.root_id !== m.parent_id) refs.push({ type: 'message', id: m.root_id });
  const thread = m.thread_id ?? m.root_id;
  if (thread) refs.push({ type: 'thread', id: thread });
  return [...refs, ...extractTextRefs(text, defaultRepo)];
}
