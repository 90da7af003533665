import { get } from '../api.js';
import { h, replace, when } from '../dom.js';
import { pauseButton, pauseLine, stateBadge } from './ticket-bits.js';
import { ticketDetailView } from './ticket-detail.js';

/**
 * Tickets (issue 6): the list, or one ticket's detail with Pause / Resume.
 * @param {HTMLElement} root
 * @param {string[]} args `[id]` for one ticket
 */
export async function ticketsPage(root, args) {
  if (args[0]) return ticketDetailView(root, decodeURIComponent(args[0]));
  const { tickets } = await get('/api/tickets');
  replace(
    root,
    h(
      'div',
      { class: 'page-head' },
      h(
        'div',
        null,
        h('h1', null, 'Tickets'),
        h('p', { class: 'muted small' }, `${tickets.length} newest first`),
      ),
    ),
    tickets.length === 0
      ? h('p', { class: 'muted' }, 'No tickets yet. Ask the bot something in “Try it”.')
      : h(
          'table',
          { class: 'table' },
          h('caption', { class: 'sr-only' }, 'Tickets, newest first'),
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              ['Ticket', 'State', 'Paused', 'From', 'Requester', 'Repository', 'Updated', ''].map((t) =>
                h('th', { scope: 'col' }, t),
              ),
            ),
          ),
          h(
            'tbody',
            null,
            tickets.map((/** @type {any} */ t) =>
              h(
                'tr',
                { 'data-ticket': t.id },
                h(
                  'td',
                  null,
                  h('a', { href: `#/tickets/${encodeURIComponent(t.id)}` }, t.id),
                  h('div', { class: 'title' }, t.title),
                ),
                h(
                  'td',
                  null,
                  stateBadge(t.state),
                  t.inferred ? h('span', { class: 'badge quiet' }, 'inferred') : null,
                ),
                h('td', null, t.pause ? pauseLine(t.pause) : '—'),
                h('td', null, t.source),
                h('td', null, t.owners?.requester?.name ?? t.owners?.requester?.id ?? '—'),
                h('td', null, t.repo ?? '—'),
                h('td', null, when(t.updatedAt)),
                h(
                  'td',
                  null,
                  pauseButton(t, () => void ticketsPage(root, [])),
                ),
              ),
            ),
          ),
        ),
  );
}
