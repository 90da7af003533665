import {
  type BotEntry,
  type LocalPersonMessage,
  readLocalChat,
} from '../../channels/local/local-chat-log.ts';
import type { Ctx } from '../../context.ts';
import { ownersOf } from '../../tickets/ownership.ts';
import { sentMessageRefKey } from '../../tickets/ref-key.ts';
import { holdersOf } from '../../tickets/refs.ts';
import { listTickets } from '../../tickets/ticket-store.ts';
import { summaries } from './ticket-list.ts';

type ReadCtx = Pick<Ctx, 'redis' | 'keys' | 'log'>;

/** One entry of a local conversation, in time order. */
export type ConversationItem =
  | {
      type: 'message';
      from: 'person' | 'bot';
      id: string;
      at: number;
      who: string;
      text: string;
      /** The message this one answers (a bot reply always names one). */
      replyTo: string | null;
      cardId: string | null;
      /** Tickets this message belongs to. */
      tickets: string[];
    }
  | { type: 'reaction'; id: string; at: number; messageId: string; emoji: string };

/**
 * `GET /api/local/messages?chat=`: the people's messages, the bot's replies and reactions to this
 * chat's messages, oldest first, and the tickets opened from the chat. What the panel polls.
 */
export async function localConversation(ctx: ReadCtx, chat: string) {
  const { people, bot, reactions } = await readLocalChat(ctx, chat);
  const ids = new Set([...people.map((m) => m.id), ...bot.map((m) => m.id)]);
  const items: ConversationItem[] = [
    ...(await Promise.all(people.map((m) => personItem(ctx, m)))),
    ...(await Promise.all(bot.map((m) => botItem(ctx, m)))),
    ...reactions
      .filter((r) => ids.has(r.messageId))
      .map(
        (r): ConversationItem => ({
          type: 'reaction',
          id: r.id,
          at: r.at,
          messageId: r.messageId,
          emoji: r.emoji ?? '',
        }),
      ),
  ].sort((a, b) => a.at - b.at);
  return { chat, items, tickets: await chatTickets(ctx, chat) };
}

async function personItem(ctx: ReadCtx, m: LocalPersonMessage): Promise<ConversationItem> {
  const tickets = await ownersOf(ctx, m.cardId);
  return {
    type: 'message',
    from: 'person',
    id: m.id,
    at: m.at,
    who: m.who,
    text: m.text,
    replyTo: m.replyTo,
    cardId: m.cardId,
    tickets: tickets.sort(),
  };
}

async function botItem(ctx: ReadCtx, m: BotEntry): Promise<ConversationItem> {
  // A message the ticket sent is indexed as its reference (src/outbox/sent-records.ts).
  const [tickets = []] = await holdersOf(ctx, [sentMessageRefKey('local', m.id)]);
  return {
    type: 'message',
    from: 'bot',
    id: m.id,
    at: m.at,
    who: 'bot',
    text: m.text ?? '',
    replyTo: m.messageId,
    cardId: null,
    tickets: tickets.sort(),
  };
}

/** Tickets whose conversation is this chat, newest first. */
async function chatTickets(ctx: ReadCtx, chat: string) {
  const tickets = (await listTickets(ctx, 500)).filter((t) => t.conversation === `local:${chat}`);
  return summaries(ctx, tickets);
}
