import { get } from '../api.js';
import { h } from '../dom.js';
import { t } from '../i18n.js';

/**
 * Issue 49 item 3: an event's reason in plain, translated words (the recorded one, with its rule
 * ids, stays under Details), and an excerpt of the message it carried.
 */

/** The recorded reason's start, and the words it means; written out so the catalog check sees the keys. */
const PLAIN = [
  [/^forced:/, () => t('events.why.forced')],
  [/^waiting for the main session/, () => t('events.why.candidate')],
  [/^our own event/, () => t('events.why.own')],
  [/^card expired/, () => t('events.why.expired')],
  [/^author may not start work/, () => t('events.why.may-not-start')],
  [/^a button press by someone not allowed/, () => t('events.why.press')],
  [/^rate limit:/, () => t('events.why.rate-limit')],
  [/^replay:/, () => t('events.why.replay')],
  [/^redelivery:/, () => t('events.why.redelivery')],
  [/^signature check failed/, () => t('events.why.signature')],
  [/^(not handled:|event |[a-z_]+\.[a-z_]+$)/, () => t('events.why.not-handled')],
  [/^automatic feedback about no ticket/, () => t('events.why.feedback')],
  [/^\/repo: only a settings admin/, () => t('events.why.repo-refused')],
  [/^T\d+: /, () => t('events.why.attached')],
];

/** The plain words for a recorded reason, or null when it is already a person's words. */
export function plainReason(/** @type {string} */ reason) {
  const hit = PLAIN.find(([re]) => /** @type {RegExp} */ (re).test(reason));
  if (hit) return /** @type {() => string} */ (hit[1])();
  if (/^\/\w+/.test(reason)) return t('events.why.command', { command: reason.split(':')[0] ?? reason });
  return null;
}

/** The reason as a line of plain words, the recorded text folded under Details. */
export function reasonBlock(/** @type {string} */ reason) {
  const plain = plainReason(reason);
  if (!plain) return h('div', { class: 'muted small reason' }, reason);
  return h(
    'div',
    { class: 'muted small reason' },
    plain,
    h(
      'details',
      { class: 'reason-raw' },
      h('summary', null, t('events.details')),
      h('span', { class: 'mono' }, reason),
    ),
  );
}

/** How much of a message a row shows. */
const EXCERPT = 160;
/** Card texts already read: a card's text never changes. */
const texts = new Map();

/** The cell with a card's text, read once per card and cut to a line; set as text, never markup. */
export function excerptCell(/** @type {string | undefined} */ cardId) {
  const cell = h('td', { class: 'event-excerpt' });
  if (!cardId) {
    cell.textContent = '—';
    return cell;
  }
  const fill = (/** @type {string} */ text) => {
    const one = text.replace(/\s+/g, ' ').trim();
    cell.textContent = one.length > EXCERPT ? `${one.slice(0, EXCERPT - 1)}…` : one || '—';
    if (one.length > EXCERPT) cell.title = one.slice(0, 2000);
  };
  if (texts.has(cardId)) fill(texts.get(cardId));
  else
    get(`/api/cards/${encodeURIComponent(cardId)}/text`)
      .then((body) => {
        texts.set(cardId, String(body.text ?? ''));
        fill(texts.get(cardId));
      })
      .catch(() => fill(''));
  return cell;
}
