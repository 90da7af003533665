import { request } from '../api.js';
import { h, toast, when } from '../dom.js';
import { t } from '../i18n.js';

/**
 * "Needs you" (issue 49 item 3): what waits on a person — a question to answer, a blocked
 * ticket, one its budget paused, deliveries failed for good — each with its action. Drawn from
 * `GET /api/needs-you` on Home and at the top of Tickets.
 */

const ticketHref = (/** @type {string} */ id) => `#/tickets/${encodeURIComponent(id)}`;

/** Where the question is answered: Try it for the panel's own chat, else the conversation. */
function answerLink(/** @type {any} */ item) {
  if (item.source === 'local') return h('a', { href: '#/try', class: 'needs-act' }, t('needs.answer.try'));
  return h(
    'a',
    { href: ticketHref(item.ticketId), class: 'needs-act' },
    t('needs.answer.there', { channel: t(`home.channel.${item.source}`) }),
  );
}

/** Sends each failed delivery again under its key (nothing goes out twice). */
function retryButton(/** @type {any} */ item, /** @type {() => void} */ after) {
  return h(
    'button',
    {
      type: 'button',
      class: 'needs-act',
      'data-action': 'retry',
      onclick: async () => {
        const path = `/api/tickets/${encodeURIComponent(item.ticketId)}/deliveries/retry`;
        const answers = await Promise.all(
          item.deliveries.map((/** @type {any} */ d) => request('POST', path, { key: d.key })),
        );
        const failed = answers.find((r) => !r.ok);
        toast(
          failed
            ? t('deliveries.retry-failed', { error: failed.body?.error ?? failed.status })
            : t('needs.retried'),
        );
        after();
      },
    },
    t('needs.retry', { n: item.deliveries.length }),
  );
}

function itemRow(/** @type {any} */ item, /** @type {() => void} */ after) {
  const badge = h('span', { class: `badge needs-${item.kind}` }, t(`needs.kind.${item.kind}`));
  const what =
    item.kind === 'answer'
      ? h('blockquote', { class: 'needs-question' }, item.question)
      : item.kind === 'delivery'
        ? h(
            'p',
            { class: 'muted small needs-detail' },
            item.deliveries.map((/** @type {any} */ d) => d.error).join(' · '),
          )
        : h('p', { class: 'muted small needs-detail' }, t(`needs.why.${item.kind}`));
  const act =
    item.kind === 'answer'
      ? answerLink(item)
      : item.kind === 'delivery'
        ? retryButton(item, after)
        : h('a', { href: ticketHref(item.ticketId), class: 'needs-act' }, t('needs.open'));
  return h(
    'li',
    { class: 'needs-item', 'data-need': item.kind, 'data-ticket': item.ticketId },
    h(
      'div',
      { class: 'needs-head' },
      badge,
      h('a', { href: ticketHref(item.ticketId) }, item.title || item.ticketId),
      h('span', { class: 'muted small' }, when(item.at)),
    ),
    what,
    h('div', { class: 'needs-actions' }, act),
  );
}

/**
 * The list, or a line saying nothing waits; `after` re-draws once an action was taken.
 * @param {any[]} items
 * @param {() => void} after
 */
export function needsList(items, after) {
  if (!items.length) return h('p', { class: 'muted', 'data-needs': 'none' }, t('needs.none'));
  return h(
    'ul',
    { class: 'needs-list' },
    items.map((i) => itemRow(i, after)),
  );
}

/**
 * The section at the top of Tickets and the first card on Home: heading level `level`.
 * @param {any[]} items
 * @param {() => void} after
 * @param {string} [cls]
 */
export function needsSection(items, after, cls = 'card needs') {
  return h(
    'section',
    { class: cls, 'data-home': 'needs', 'aria-labelledby': 'needs-you' },
    h('h2', { id: 'needs-you' }, t('needs.title', { n: items.length })),
    needsList(items, after),
  );
}
