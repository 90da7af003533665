import { get, request } from '../api.js';
import { h, replace, when } from '../dom.js';
import { t } from '../i18n.js';
import { needsSection } from './needs-you.js';
import { pauseButton, pauseLine, stateBadge } from './ticket-bits.js';
import { ticketDetailView } from './ticket-detail.js';
import { filterQuery, learnSuggestions, ticketFilters } from './ticket-filters.js';

/** How often the list asks again while it is shown (issue 49 item 4). */
const POLL_MS = 5000;

/** The ticket's PR: a link only to a web address (the record comes from outside). */
const prLink = (/** @type {{ url: string, label: string }} */ pr) =>
  /^https?:\/\//.test(pr.url) ? h('a', { href: pr.url }, pr.label) : pr.label;

function row(/** @type {any} */ tk, /** @type {() => void} */ after) {
  return h(
    'tr',
    { 'data-ticket': tk.id },
    h(
      'td',
      null,
      h('a', { href: `#/tickets/${encodeURIComponent(tk.id)}` }, tk.id),
      h('div', { class: 'title' }, tk.title),
      tk.question ? h('div', { class: 'muted small ticket-question' }, tk.question) : null,
    ),
    h(
      'td',
      null,
      stateBadge(tk.state),
      tk.waitingOn ? h('span', { class: 'badge warn' }, t(`tickets.waiting.${tk.waitingOn}`)) : null,
      tk.inferred ? h('span', { class: 'badge quiet' }, t('tickets.inferred')) : null,
    ),
    h('td', null, tk.pause ? pauseLine(tk.pause) : '—'),
    h('td', null, tk.source),
    h('td', null, tk.owners?.requester?.name ?? tk.owners?.requester?.id ?? '—'),
    h('td', null, tk.repo ?? '—', tk.pr ? h('div', null, prLink(tk.pr)) : null),
    h('td', null, when(tk.updatedAt)),
    h('td', null, pauseButton(tk, after)),
  );
}

function table(/** @type {any[]} */ tickets, /** @type {() => void} */ after) {
  return h(
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
        h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, t('tickets.col.actions'))),
      ),
    ),
    h(
      'tbody',
      null,
      tickets.map((tk) => row(tk, after)),
    ),
  );
}

/**
 * Tickets (issue 6): the list, or one ticket's detail with Pause / Resume. Issue 49: what needs a
 * person on top, filters the server applies, refreshed every few seconds.
 * @param {HTMLElement} root
 * @param {string[]} args `[id]` for one ticket
 */
export async function ticketsPage(root, args) {
  if (args[0]) return ticketDetailView(root, decodeURIComponent(args[0]));
  const needs = h('div', { class: 'tickets-needs' });
  const count = h('p', { class: 'muted small', 'aria-live': 'polite' });
  const list = h('div');
  let asked = 0;
  const draw = async () => {
    const mine = ++asked;
    const [{ items }, { status, body }] = await Promise.all([
      get('/api/needs-you'),
      request('GET', filterQuery(form) ? `/api/tickets?${filterQuery(form)}` : '/api/tickets'),
    ]);
    // An answer to an older query (typing went on meanwhile) is dropped.
    if (mine !== asked) return;
    replace(needs, items.length ? needsSection(items, () => void draw()) : null);
    if (status !== 200) {
      replace(list, h('p', { class: 'problem', role: 'alert' }, body?.error ?? String(status)));
      return;
    }
    const { tickets } = body;
    learnSuggestions(form, tickets);
    count.textContent = t(filterQuery(form) ? 'tickets.count.filtered' : 'tickets.count', {
      n: tickets.length,
    });
    replace(
      list,
      tickets.length
        ? table(tickets, () => void draw())
        : h('p', { class: 'muted' }, t(filterQuery(form) ? 'tickets.none-match' : 'tickets.empty')),
    );
  };
  const form = ticketFilters(() => void draw());
  // Drawn whole the first time: the heading never shows before its list.
  await draw();
  replace(
    root,
    h('div', { class: 'page-head' }, h('div', null, h('h1', null, t('page.tickets')), count)),
    needs,
    form,
    list,
  );
  const timer = setInterval(() => {
    // A reader choosing in a control keeps it: the refresh waits until focus leaves the form.
    if (!list.isConnected) clearInterval(timer);
    else if (!form.contains(document.activeElement)) void draw().catch(() => undefined);
  }, POLL_MS);
}
