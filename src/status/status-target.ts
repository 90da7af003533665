import { withMarker } from '../channels/github/marker.ts';
import type { Effect } from '../outbox/effect.ts';
import type { Ticket } from '../tickets/ticket.ts';
import { renderFeishuCard } from './render-feishu-card.ts';
import { renderStatusMarkdown } from './render-status-markdown.ts';
import type { TicketStatus } from './status-model.ts';

/** Where a ticket's status message lives: where its request came from (issue 9). */
export type StatusTarget =
  | { channel: 'feishu'; replyTo: string }
  | { channel: 'github'; repo: string; number: number }
  | { channel: 'local'; chatId: string; replyTo: string; statusId: string };

/** The status message's place, or none (a GitHub event outside any issue or PR). */
export function statusTarget(ticket: Pick<Ticket, 'id' | 'origin'>): StatusTarget | undefined {
  const o = ticket.origin;
  switch (o.source) {
    case 'feishu':
      return { channel: 'feishu', replyTo: o.messageId };
    case 'github':
      return o.number === undefined ? undefined : { channel: 'github', repo: o.repo, number: o.number };
    case 'local':
      return { channel: 'local', chatId: o.chatId, replyTo: o.messageId, statusId: `status-${ticket.id}` };
  }
}

/** What the status message says on the target's platform; compared to skip edits that change nothing. */
export function renderFor(target: StatusTarget, status: TicketStatus): string {
  if (target.channel === 'feishu') return JSON.stringify(renderFeishuCard(status));
  return renderStatusMarkdown(status, { hint: target.channel === 'github' });
}

/** The effect that posts the status message (the one new message). */
export function postEffect(target: StatusTarget, content: string): Effect {
  switch (target.channel) {
    case 'feishu':
      return { op: 'feishu.card.reply', messageId: target.replyTo, card: JSON.parse(content) };
    case 'github':
      return { op: 'github.comment', repo: target.repo, number: target.number, body: content };
    case 'local':
      return localStatus(target, content);
  }
}

/**
 * The effect that edits it in place. `postKey` is the post's outbox key: GitHub comments keep its
 * hidden marker, so a retried post still finds the comment after edits.
 */
export function editEffect(
  target: StatusTarget,
  messageId: string,
  content: string,
  postKey: string,
): Effect {
  switch (target.channel) {
    case 'feishu':
      return { op: 'feishu.card.patch', messageId, card: JSON.parse(content) };
    case 'github':
      return {
        op: 'github.comment.edit',
        repo: target.repo,
        commentId: Number(messageId),
        body: withMarker(content, postKey),
      };
    case 'local':
      return localStatus(target, content);
  }
}

function localStatus(t: Extract<StatusTarget, { channel: 'local' }>, text: string): Effect {
  return { op: 'local.status', chatId: t.chatId, messageId: t.replyTo, statusId: t.statusId, text };
}
