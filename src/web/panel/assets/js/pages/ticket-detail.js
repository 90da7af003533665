import { get } from '../api.js';
import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { changesSection } from './ticket-changes.js';
import { ticketHeader } from './ticket-header.js';
import { liveTicket } from './ticket-live.js';
import { ticketInternals, ticketMore } from './ticket-more.js';
import { timelineSection } from './ticket-timeline.js';

/**
 * One ticket (issue 49): a pinned header (state, whom it waits on, PR, now, budget), one
 * timeline of everything that happened in time order, the change on its branch, then the plan,
 * deliveries, screenshots, and the internals folded. One poll (`ticket-live.js`) keeps every
 * part fresh while the ticket is open.
 * @param {HTMLElement} root
 * @param {string} id
 */
export async function ticketDetailView(root, id) {
  const tk = await get(`/api/tickets/${encodeURIComponent(id)}`);
  /** @type {{ now: () => void }} */
  let live = { now: () => undefined };
  const refresh = () => live.now();
  const header = ticketHeader(tk, refresh);
  const timeline = timelineSection();
  const changes = changesSection(id);
  const more = h('div', { class: 'ticket-more' }, ...ticketMore(tk, refresh));
  let moreSeen = moreMark(tk);
  const internals = ticketInternals(tk);
  replace(
    root,
    h('p', { class: 'back' }, h('a', { href: '#/tickets' }, t('ticket.back'))),
    header.head,
    timeline.section,
    changes.section,
    more,
    internals.box,
  );
  live = liveTicket(root, id, {
    detail: (next) => {
      header.update(next);
      internals.update(next);
      const mark = moreMark(next);
      if (mark !== moreSeen) {
        moreSeen = mark;
        replace(more, ...ticketMore(next, refresh));
      }
    },
    timeline: timeline.update,
    changes: changes.update,
  });
  live.now();
}

/** What the parts below the changes draw from: redrawn only when it changed. @param {any} tk */
const moreMark = (tk) =>
  JSON.stringify([
    tk.plan,
    tk.outbox,
    tk.troubled,
    (tk.screenshots ?? []).map((/** @type {any} */ s) => s.id),
  ]);
