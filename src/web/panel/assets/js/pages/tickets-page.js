import { get } from '../api.js';
import { h, replace, when } from '../dom.js';
import { t } from '../i18n.js';
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
        h('h1', null, t('page.tickets')),
        h('p', { class: 'muted small' }, t('tickets.count', { n: tickets.length })),
      ),
    ),
    tickets.length === 0
      ? h('p', { class: 'muted' }, t('tickets.empty'))
      : h(
          'table',
          { class: 'table' },
          h('caption', { class: 'sr-only' }, t('tickets.caption')),
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              ['ticket', 'state', 'paused', 'from', 'requester', 'repository', 'updated'].map((c) =>
                h('th', { scope: 'col' }, t(`tickets.col.${c}`)),
              ),
              h('th', { scope: 'col' }),
            ),
          ),
          h(
            'tbody',
            null,
            tickets.map((/** @type {any} */ tk) =>
              h(
                'tr',
                { 'data-ticket': tk.id },
                h(
                  'td',
                  null,
                  h('a', { href: `#/tickets/${encodeURIComponent(tk.id)}` }, tk.id),
                  h('div', { class: 'title' }, tk.title),
                ),
                h(
                  'td',
                  null,
                  stateBadge(tk.state),
                  tk.inferred ? h('span', { class: 'badge quiet' }, t('tickets.inferred')) : null,
                ),
                h('td', null, tk.pause ? pauseLine(tk.pause) : '—'),
                h('td', null, tk.source),
                h('td', null, tk.owners?.requester?.name ?? tk.owners?.requester?.id ?? '—'),
                h('td', null, tk.repo ?? '—'),
                h('td', null, when(tk.updatedAt)),
                h(
                  'td',
                  null,
                  pauseButton(tk, () => void ticketsPage(root, [])),
                ),
              ),
            ),
          ),
        ),
  );
}
