import type { Effect } from '../outbox/effect.ts';
import type { TriggerCard } from './card.ts';

/**
 * The effect that answers a card where it came from (R-C2, CONTRACT `reply`): a Feishu reply to
 * the message (in its thread when it has one), a reply in the same GitHub review thread, or a
 * comment on the same issue or PR.
 */
export function replyEffectFor(card: Pick<TriggerCard, 'origin'>, text: string): Effect | undefined {
  const o = card.origin;
  switch (o.source) {
    case 'feishu':
      return {
        op: 'feishu.reply',
        messageId: o.messageId,
        chatId: o.chatId,
        text,
        ...(o.threadId ? { inThread: true } : {}),
      };
    case 'local':
      return { op: 'local.reply', chatId: o.chatId, messageId: o.messageId, text };
    case 'github':
      if (o.number === undefined) return undefined;
      if (o.commentType === 'review' && o.commentId !== undefined) {
        return {
          op: 'github.review_reply',
          repo: o.repo,
          number: o.number,
          commentId: o.commentId,
          body: text,
        };
      }
      return { op: 'github.comment', repo: o.repo, number: o.number, body: text };
  }
}
