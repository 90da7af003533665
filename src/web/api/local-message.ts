import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { CardDraft } from '../../cards/card.ts';

/** The chat the panel's "Try it" box uses when it names none. */
export const DEFAULT_LOCAL_CHAT = 'panel';

/** `reactions` is where the local sender keeps every chat's reactions, so no chat may be called that. */
export const LocalChatId = z
  .string()
  .regex(/^[\w-]{1,64}$/, 'a chat id is 1–64 letters, digits, _ or -')
  .refine((s) => s !== 'reactions', 'reactions is reserved');

export const LocalMessageBody = z.strictObject({
  text: z.string().trim().min(1, 'text is empty').max(20_000, 'text is over 20000 characters'),
  chat: LocalChatId.optional(),
  /** The message (the bot's or a person's) this one replies to. */
  replyTo: z
    .string()
    .regex(/^[\w-]{1,200}$/, 'replyTo must be a message id')
    .optional(),
});
export type LocalMessageBody = z.output<typeof LocalMessageBody>;

/** A person's message as kept in `keys.localPeople(chat)` (its owner: `channels/local/local-chat-log.ts`). */
export type { LocalPersonMessage } from '../../channels/local/local-chat-log.ts';

/**
 * The card draft of a local-chat message, shaped exactly like a Feishu one: a message is an
 * explicit request unless it replies to something, and a reply carries the message it answers as
 * reply root and explicit reference (R-B2), so it attaches to that message's ticket.
 */
export function localMessageDraft(
  body: LocalMessageBody,
  who: string,
): { draft: CardDraft; messageId: string } {
  const messageId = `lp-${randomUUID()}`;
  const chat = body.chat ?? DEFAULT_LOCAL_CHAT;
  const { replyTo } = body;
  const draft: CardDraft = {
    source: 'local',
    kind: 'message',
    eventId: messageId,
    author: { id: who, name: who, type: 'person' },
    origin: { source: 'local', chatId: chat, messageId, ...(replyTo ? { rootId: replyTo } : {}) },
    conversation: `local:${chat}`,
    ...(replyTo ? { replyTo } : {}),
    request: !replyTo,
    refs: replyTo ? [{ type: 'message', id: replyTo }] : [],
    text: body.text,
  };
  return { draft, messageId };
}
