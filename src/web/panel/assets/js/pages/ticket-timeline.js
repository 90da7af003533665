import { h, replace, when } from '../dom.js';
import { t, tOr } from '../i18n.js';
import { markdown } from '../markdown.js';
import { person, stateBadge } from './ticket-bits.js';
import { idDetails, stepsItem } from './timeline-steps.js';

/**
 * Issue 49 item 1: the ticket as one list in time order — people's messages, the bot's messages,
 * the agent's steps per turn, commits, the PR, reports with their questions, pauses — as
 * `GET /api/tickets/:id/timeline` merged it. Plain words first; internal ids in each item's
 * Details. `update` redraws when the answer changed, keeping what the reader unfolded.
 */
export function timelineSection() {
  const list = h('ol', { class: 'timeline', 'aria-label': t('tl.label') });
  const status = h('p', { class: 'muted small', 'aria-live': 'polite' }, t('traj.loading'));
  const section = h(
    'section',
    { class: 'card', 'data-timeline': '' },
    h('h2', null, t('tl.title')),
    status,
    list,
  );
  let last = '';
  /** @param {any[]} items @param {boolean} live */
  const update = (items, live) => {
    status.textContent = items.length ? t(live ? 'tl.live' : 'tl.count', { n: items.length }) : t('tl.empty');
    const text = JSON.stringify(items);
    if (text === last) return;
    last = text;
    const open = new Set([...list.querySelectorAll('details[open]')].map((d) => d.getAttribute('data-fold')));
    replace(
      list,
      items.map((item, i) => itemView(item, i)),
    );
    for (const d of list.querySelectorAll('details'))
      if (open.has(d.getAttribute('data-fold'))) d.setAttribute('open', '');
  };
  return { section, update };
}

/** @param {any} item @param {number} i */
function itemView(item, i) {
  // Steps stored before step records have no time of their own (issue 17): shown without one.
  const timed = Number.isFinite(item.at) && item.at > 0;
  const body = VIEW[/** @type {keyof typeof VIEW} */ (item.kind)]?.(item, i) ?? [item.kind];
  return h(
    'li',
    { class: `tl-item tl-${item.kind}`, 'data-kind': item.kind, 'data-at': String(item.at ?? '') },
    h(
      'time',
      {
        class: 'tl-when muted small',
        datetime: timed ? new Date(item.at).toISOString() : null,
        title: timed ? when(item.at) : null,
      },
      timed ? clock(item.at) : '',
    ),
    h('div', { class: 'tl-body' }, ...body),
  );
}

/** The time of day; the date is in the tooltip. @param {number} at */
const clock = (at) =>
  new Date(at).toLocaleTimeString(document.documentElement.lang || undefined, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });

/** @param {string} text */
const head = (...parts) => h('div', { class: 'tl-head' }, ...parts);

/** @type {Record<string, (item: any, i: number) => unknown[]>} */
const VIEW = {
  message: (m, i) => [
    head(
      m.card ? person(m.card.author) : h('span', null, '?'),
      ' ',
      h('span', { class: 'muted' }, tOr(`tl.wrote.${m.card?.source}`, t('tl.wrote'))),
    ),
    m.card ? h('blockquote', { class: 'tl-text' }, markdown(m.card.excerpt)) : null,
    idDetails(`msg-${i}`, [
      [t('tl.id.card'), m.cardId],
      [t('tl.id.kind'), m.card?.kind],
      [t('tl.id.why'), m.why],
    ]),
  ],
  bot: (b, i) => [
    head(
      h('strong', null, 'Switchyard'),
      ' ',
      h('span', { class: 'muted' }, tOr(`tl.bot.${b.purpose}`, t('tl.bot.result'))),
      b.sent ? null : h('span', { class: 'badge warn' }, t('tl.pending')),
    ),
    h('div', { class: 'tl-text' }, markdown(b.text)),
    idDetails(`bot-${i}`, [
      [t('tl.id.to'), b.to],
      [t('tl.id.outbox'), b.outboxKey],
      [t('tl.id.message'), b.sent?.id],
      [t('tl.id.session'), b.session],
    ]),
  ],
  steps: stepsItem,
  commit: (c, i) => [
    head(h('strong', null, t('tl.commit')), ' ', h('span', { class: 'tl-subject' }, c.message)),
    idDetails(`commit-${i}`, [
      [t('tl.id.result'), c.result],
      [t('tl.id.session'), c.session],
    ]),
  ],
  pr: (p) => [
    head(
      h('strong', null, tOr(`tl.pr-${p.event}`, t('tl.pr-opened'))),
      ' ',
      p.pr && /^https?:\/\//.test(p.pr.url)
        ? h(
            'a',
            { href: p.pr.url, rel: 'noopener noreferrer', target: '_blank' },
            t('ticket.pr-label', { number: p.pr.number }),
          )
        : null,
      ' ',
      h('span', { class: 'tl-subject' }, p.title),
    ),
  ],
  report: (r, i) => [
    head(h('strong', null, t('tl.report')), ' ', stateBadge(r.report.status)),
    h('div', { class: 'tl-text' }, markdown(r.report.summary ?? '')),
    r.report.human_action
      ? h(
          'div',
          { class: 'question', 'data-question': '' },
          h('strong', null, `${t('ticket.question')} `),
          markdown(r.report.human_action.question),
          r.report.human_action.choices?.length
            ? h(
                'ul',
                { class: 'plain' },
                r.report.human_action.choices.map((/** @type {string} */ c) => h('li', null, c)),
              )
            : null,
        )
      : null,
    r.report.by || r.report.kind
      ? idDetails(`report-${i}`, [
          [t('tl.id.by'), r.report.by],
          [t('tl.id.kind'), r.report.kind],
        ])
      : null,
  ],
  pause: (p) => [
    head(t('pause.line', { by: p.by, at: when(p.at), via: tOr(`pause.via.${p.via}`, p.via) })),
    p.detail ? h('div', { class: 'muted small' }, p.detail) : null,
  ],
  resume: (p) => [
    head(t('tl.resumed', { by: p.by, via: tOr(`pause.via.${p.via}`, p.via) })),
    p.detail ? h('div', { class: 'muted small' }, p.detail) : null,
  ],
};
