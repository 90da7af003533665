import type { Mention } from './event-schemas.ts';
import { larkSdk } from './lark-sdk.ts';
import { type MessageText, messageText, tidy } from './message-text.ts';

/**
 * Message types whose content the Feishu SDK's `normalize()` renders (R-A3): media and file keys
 * and names, shared chats and contacts, locations, votes, to-dos, calendar events, meetings — as
 * short pseudo-tags (`<file key="…" name="…"/>`, `![image](key)`) the model can read.
 *
 * Not handed to it, and why (checked against @larksuiteoapi/node-sdk 1.74.0's source):
 * - `text` and `post` (`messageText`): its mention pass replaces each mention key with
 *   `split/join` in list order, so `@_user_1` also rewrites the front of `@_user_12`, a bot
 *   mention strips `@_user_1` out of `@_user_12` (leaving `2`), a key that is empty or a word
 *   rewrites every occurrence (an empty key puts the name between every character), and a name
 *   that is itself a later key is replaced again; it then collapses every run of blanks and trims,
 *   which flattens the indentation of code blocks; a post `at` element whose `user_id` is the
 *   placeholder (what events carry) reads `@@Name`; a non-string `text` throws outside its error
 *   containment. It also folds a post's title into the text, where the card keeps it apart.
 * - The bot mention (`isBotMention`): its `mentionedBot` needs the bot's open_id, so while Feishu's
 *   bot info is unknown it says "not mentioned" and a person's request would be dropped.
 * - `interactive`: its card walker visits a button's `text` twice, so nested buttons cost 2^depth
 *   (22 levels, 577 bytes: 7 s with the event loop blocked).
 * - `system`: its `{name}` template fills in fields as often as the template names them, so a
 *   short message can grow without bound.
 * - `merge_forward`: it needs an API call per message to say more than "forwarded messages".
 * - Unknown types: it reads any `text` field as the message; they stay a bracketed marker.
 */
const SDK_TYPES = new Set([
  'image',
  'file',
  'audio',
  'media',
  'video',
  'sticker',
  'share_chat',
  'share_user',
  'location',
  'vote',
  'todo',
  'calendar',
  'general_calendar',
  'share_calendar_event',
  'folder',
  'video_chat',
  'hongbao',
]);

/** The readable text of a received or read message: `messageText` or the SDK, by type. */
export async function readMessage(
  messageType: string,
  content: string,
  mentions: Mention[],
  isBot: (m: Mention) => boolean,
): Promise<MessageText> {
  if (!SDK_TYPES.has(messageType)) return messageText(messageType, content, mentions, isBot);
  // No mentions and no identity go in: its mention pass is then a no-op (see above); nothing here
  // reads a sender, a chat or a time, and without `fetchSubMessages` it makes no request.
  const out = await larkSdk().normalize(
    {
      sender: { sender_id: {} },
      message: { message_id: '', chat_id: '', chat_type: 'group', message_type: messageType, content },
    },
    { botIdentity: { openId: '', name: '' } },
  );
  return { text: typeof out.content === 'string' ? tidy(out.content) : `[${messageType}]` };
}
