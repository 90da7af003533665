import { statusLines } from './status-lines.ts';
import { openQuestion, type TicketStatus } from './status-model.ts';
import { LABELS, STATE_EMOJI, STATE_LABEL, STATE_TEMPLATE } from './status-texts.ts';

type Json = Record<string, unknown>;

const text = (content: string): Json => ({ tag: 'plain_text', content });

/**
 * A button whose callback value `{ action }` reads as `button:<action>` in the card-action card
 * (`parseCardAction`): `button:pause`, `button:resume`, `button:answer:<n>`.
 */
function button(label: string, action: string, type: 'primary' | 'default' | 'danger'): Json {
  return {
    tag: 'button',
    text: text(label),
    type,
    behaviors: [{ type: 'callback', value: { action } }],
  };
}

/** Pause or Resume, and one button per choice of an open question (numbered from 1). */
export function statusButtons(s: TicketStatus): Json[] {
  if (s.state === 'done') return [];
  const buttons = [
    s.state === 'paused'
      ? button(LABELS.resume, 'resume', 'primary')
      : button(LABELS.pause, 'pause', 'default'),
  ];
  const open = openQuestion(s.question);
  if (open?.askedIn !== 'reply')
    open?.choices.forEach((choice, i) => {
      buttons.push(button(choice.slice(0, 40), `answer:${i + 1}`, 'primary'));
    });
  return buttons;
}

/**
 * The status card (Feishu card JSON 2.0): the state in the header, a Markdown body, and the
 * buttons in one row. Pure, so each state has a golden file (test/fixtures/status).
 */
export function renderFeishuCard(s: TicketStatus): Json {
  const label = `${STATE_EMOJI[s.state]} ${STATE_LABEL[s.state]}`;
  const elements: Json[] = [{ tag: 'markdown', content: statusLines(s).join('\n') }];
  const buttons = statusButtons(s);
  if (buttons.length) {
    elements.push({
      tag: 'column_set',
      flex_mode: 'flow',
      horizontal_spacing: 'small',
      columns: buttons.map((b) => ({ tag: 'column', width: 'auto', elements: [b] })),
    });
  }
  return {
    schema: '2.0',
    // Every viewer sees the edits (JSON 2.0 cards only support shared updates).
    config: { update_multi: true, summary: { content: `${s.ticketId} · ${STATE_LABEL[s.state]}` } },
    header: {
      title: text(`${s.ticketId} · ${s.title}`),
      subtitle: text(label),
      template: STATE_TEMPLATE[s.state],
    },
    body: { elements },
  };
}
