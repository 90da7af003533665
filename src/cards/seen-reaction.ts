import type { Effect } from '../outbox/effect.ts';
import type { TriggerCard } from './card.ts';

/**
 * The "seen" reaction for a card, or none. People's explicit requests get one within a second
 * of the webhook (CONTRACT "In chat and on GitHub"); bots and automatic feedback get nothing.
 */
export function seenReactionFor(card: TriggerCard): Effect | undefined {
  if (!card.request || card.author.type !== 'person') return undefined;
  const o = card.origin;
  switch (o.source) {
    case 'feishu':
      return { op: 'feishu.react', messageId: o.messageId, emoji: 'OnIt' };
    case 'local':
      return { op: 'local.react', messageId: o.messageId, emoji: 'eyes' };
    case 'github':
      if (o.commentId !== undefined && o.commentType === 'issue') {
        return {
          op: 'github.react',
          repo: o.repo,
          target: 'issue_comment',
          id: o.commentId,
          content: 'eyes',
        };
      }
      if (o.commentId !== undefined && o.commentType === 'review') {
        return {
          op: 'github.react',
          repo: o.repo,
          target: 'review_comment',
          id: o.commentId,
          content: 'eyes',
        };
      }
      if (o.number !== undefined)
        return { op: 'github.react', repo: o.repo, target: 'issue', id: o.number, content: 'eyes' };
      return undefined;
  }
}
