import type { CardDraft } from '../../cards/card.ts';
import { isAllowedOnFeishu, NOT_ALLOWED_ROLE } from './allow-list.ts';
import type { CardActionEvent } from './event-schemas.ts';
import type { FeishuFacts } from './facts.ts';

/**
 * `card.action.trigger` → a `card_action` card (R-A1): `action` is `<tag>:<value>` (a button
 * whose value is `{ action: 'pause' }` or `'pause'` gives `button:pause`), the author is the
 * operator, and the only ref is the card's own message, which is how routing finds its ticket.
 * It is never a request by itself: a button steers the ticket whose card it is, it opens nothing.
 */
export function parseCardAction(e: CardActionEvent, facts: FeishuFacts): CardDraft {
  const detail = actionDetail(e.action);
  const ids = e.operator;
  const allowed = isAllowedOnFeishu(facts.config, ids, e.context.open_chat_id);
  const form = e.action.form_value ? `\n${jsonText(e.action.form_value)}` : '';
  return {
    source: 'feishu',
    kind: 'card_action',
    eventId: e.event_id,
    action: detail ? `${e.action.tag}:${detail}` : e.action.tag,
    author: {
      id: ids.open_id ?? ids.user_id ?? ids.union_id ?? 'unknown',
      type: 'person',
      // R-A5: a press by someone outside the allow-lists is recorded but steers nothing.
      ...(allowed ? {} : { role: NOT_ALLOWED_ROLE }),
    },
    origin: {
      source: 'feishu',
      chatId: e.context.open_chat_id,
      // The callback does not say which kind of chat the card is in; answers go by message id.
      chatType: 'group',
      messageId: e.context.open_message_id,
    },
    conversation: e.context.open_chat_id,
    replyTo: e.context.open_message_id,
    request: false,
    refs: [{ type: 'message', id: e.context.open_message_id }],
    text: `${detail ?? e.action.tag}${form}`,
  };
}

function actionDetail(a: CardActionEvent['action']): string | undefined {
  const v = a.value;
  if (typeof v === 'string' && v) return v;
  if (v && typeof v === 'object' && typeof (v as { action?: unknown }).action === 'string') {
    return (v as { action: string }).action;
  }
  if (a.option) return a.option;
  if (a.input_value) return a.input_value;
  if (v !== undefined && v !== null) return jsonText(v).slice(0, 200);
  return undefined;
}

/** A value of the press as JSON text; one nested too deep to write out says so instead of failing. */
function jsonText(v: unknown): string {
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    return '[a value nested too deep to show]';
  }
}
