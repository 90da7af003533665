import type { Ref, TriggerCard } from '../cards/card.ts';

/**
 * The index key of a reference. PRs and issues share GitHub's number space, so both map to
 * `gh:owner/name#N`: a comment on a ticket's PR and a URL naming it find the same ticket.
 */
export function refKey(ref: Ref): string {
  switch (ref.type) {
    case 'pr':
    case 'issue':
      return `gh:${ref.repo.toLowerCase()}#${ref.number}`;
    case 'message':
      return `msg:${ref.id}`;
    case 'thread':
      return `thread:${ref.id}`;
    case 'commit':
      return `commit:${ref.sha.toLowerCase()}`;
    case 'branch':
      return `branch:${ref.repo.toLowerCase()}:${ref.name}`;
    case 'url':
      return `url:${ref.url}`;
    case 'review_thread':
      return `rthread:${ref.id}`;
  }
}

/**
 * The reference key of a message the bot sent (R-B2: a reply to it attaches to its ticket):
 * Feishu and local message ids as they are, GitHub comment ids as `msg:comment:N`, the key a
 * GitHub card's `threadKeys` uses for the same comment.
 */
export function sentMessageRefKey(channel: 'feishu' | 'github' | 'local', id: string): string {
  return channel === 'github' && /^\d+$/.test(id) ? `msg:comment:${id}` : refKey({ type: 'message', id });
}

/**
 * The index key of a ticket's conversation (issue 18): which tickets live in a chat or on an issue.
 * It is never among a card's reference keys (`cardRefKeys`), so it attaches nothing (R-B2); it only
 * tells routing whether some ticket could be meant by an unreferenced request there.
 */
export const conversationRefKey = (conversation: string): string => `conv:${conversation}`;

/** Whether an index key is a conversation key rather than a reference (shown apart, never matched). */
export const isConversationRefKey = (key: string): boolean => key.startsWith('conv:');

/** Commits and branches attach only when exactly one ticket holds them (R-B2 "recent change"). */
export const needsUniqueOwner = (key: string): boolean =>
  key.startsWith('commit:') || key.startsWith('branch:');

/**
 * Every reference key a card carries explicitly: its refs, the message it replies to, its reply
 * root and thread, and (GitHub) the issue or PR it happened on.
 */
export function cardRefKeys(card: TriggerCard): string[] {
  const keys = new Set(card.refs.map(refKey));
  if (card.replyTo) keys.add(`msg:${card.replyTo}`);
  const o = card.origin;
  if (o.source === 'feishu') {
    if (o.rootId) keys.add(`msg:${o.rootId}`);
    if (o.threadId) keys.add(`thread:${o.threadId}`);
  } else if (o.source === 'local') {
    if (o.rootId) keys.add(`msg:${o.rootId}`);
  } else {
    if (o.number !== undefined) keys.add(`gh:${o.repo.toLowerCase()}#${o.number}`);
    if (o.reviewThreadId) keys.add(`rthread:${o.reviewThreadId}`);
  }
  return [...keys];
}

/**
 * The keys that make up a card's conversation thread: attaching the card subscribes its ticket to
 * them, so later replies anywhere in the thread find the ticket (R-B2).
 */
export function threadKeys(card: TriggerCard): string[] {
  const o = card.origin;
  switch (o.source) {
    case 'feishu':
      return [
        `msg:${o.messageId}`,
        ...(o.rootId ? [`msg:${o.rootId}`] : []),
        ...(o.threadId ? [`thread:${o.threadId}`] : []),
      ];
    case 'local':
      return [`msg:${o.messageId}`, ...(o.rootId ? [`msg:${o.rootId}`] : [])];
    case 'github':
      return [
        ...(o.number !== undefined ? [`gh:${o.repo.toLowerCase()}#${o.number}`] : []),
        ...(o.commentId !== undefined ? [`msg:comment:${o.commentId}`] : []),
        ...(o.reviewThreadId ? [`rthread:${o.reviewThreadId}`] : []),
      ];
  }
}
