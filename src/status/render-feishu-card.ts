import { hostText } from '../i18n/host-text.ts';
import { FEISHU_LOCALE, LANGS, type Lang } from '../i18n/lang.ts';
import { statusLines } from './status-lines.ts';
import { openQuestion, type TicketStatus } from './status-model.ts';
import { STATE_EMOJI, STATE_TEMPLATE, stateLabel } from './status-texts.ts';

type Json = Record<string, unknown>;

/**
 * A text in every language (issue 16): `content` in the ticket's language (what a client whose
 * language the card lacks shows), and `i18n_content` by Feishu locale, so each reader sees their
 * client's language (card JSON 2.0 supports only this per-field i18n, not whole-card i18n).
 */
function localized(lang: Lang, textIn: (l: Lang) => string): { content: string; i18n_content: Json } {
  return {
    content: textIn(lang),
    i18n_content: Object.fromEntries(LANGS.map((l) => [FEISHU_LOCALE[l], textIn(l)])),
  };
}

const plain = (content: string): Json => ({ tag: 'plain_text', content });

/**
 * A button whose callback value `{ action }` reads as `button:<action>` in the card-action card
 * (`parseCardAction`): `button:pause`, `button:resume`, `button:answer:<n>`.
 */
function button(text: Json, action: string, type: 'primary' | 'default' | 'danger'): Json {
  return { tag: 'button', text, type, behaviors: [{ type: 'callback', value: { action } }] };
}

/** Pause or Resume, and one button per choice of an open question (numbered from 1). */
export function statusButtons(s: TicketStatus, lang: Lang = s.lang ?? 'en'): Json[] {
  if (s.state === 'done') return [];
  const buttons = [
    s.state === 'paused'
      ? button(
          { tag: 'plain_text', ...localized(lang, (l) => hostText(l, 'status.button.resume')) },
          'resume',
          'primary',
        )
      : button(
          { tag: 'plain_text', ...localized(lang, (l) => hostText(l, 'status.button.pause')) },
          'pause',
          'default',
        ),
  ];
  const open = openQuestion(s.question);
  // The choices are the executor's words, the same for every reader.
  if (open?.askedIn !== 'reply')
    open?.choices.forEach((choice, i) => {
      buttons.push(button(plain(choice.slice(0, 40)), `answer:${i + 1}`, 'primary'));
    });
  return buttons;
}

/**
 * The status card (Feishu card JSON 2.0): the state in the header, a Markdown body, and the
 * buttons in one row, every host word in both languages. Pure, so each state has a golden file
 * (test/fixtures/status).
 */
export function renderFeishuCard(s: TicketStatus): Json {
  const lang = s.lang ?? 'en';
  const body = localized(lang, (l) => statusLines(s, l).join('\n'));
  const elements: Json[] = [{ tag: 'markdown', ...body }];
  const buttons = statusButtons(s, lang);
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
    config: {
      // Every viewer sees the edits (JSON 2.0 cards only support shared updates).
      update_multi: true,
      locales: LANGS.map((l) => FEISHU_LOCALE[l]),
      summary: localized(lang, (l) => `${s.ticketId} · ${stateLabel(l, s.state)}`),
    },
    header: {
      title: plain(`${s.ticketId} · ${s.title}`),
      subtitle: {
        tag: 'plain_text',
        ...localized(lang, (l) => `${STATE_EMOJI[s.state]} ${stateLabel(l, s.state)}`),
      },
      template: STATE_TEMPLATE[s.state],
    },
    body: { elements },
  };
}
