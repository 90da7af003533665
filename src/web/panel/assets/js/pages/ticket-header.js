import { h, replace, when } from '../dom.js';
import { t, tOr } from '../i18n.js';
import { usd } from './cost-section.js';
import { pauseButton, pauseLine, person, stateBadge } from './ticket-bits.js';
import { nowUpdate, ticketNowSection } from './ticket-now.js';

/**
 * Issue 49 item 1: the ticket page's pinned header — the ticket, its state, whom it waits on, its
 * PR, what it is doing now and the budget it used — redrawn from every poll of the page
 * (`ticket-live.js`), so a PR opened after the page loaded shows without a reload.
 * @param {any} tk the ticket as `GET /api/tickets/:id` answers it
 * @param {() => void} refresh polls at once (after Pause or Resume)
 */
export function ticketHeader(tk, refresh) {
  const meta = h('p', { class: 'meta' });
  const facts = h('p', { class: 'meta head-facts' });
  const actions = h('div', { class: 'actions' });
  const now = ticketNowSection(tk.id, tk.status);
  const head = h(
    'header',
    { class: 'page-head sticky ticket-head', 'data-ticket-head': tk.id },
    h('div', { class: 'head-text' }, h('h1', null, `${tk.id}: ${tk.title}`), meta, facts, now),
    actions,
  );
  /** @param {any} next */
  const draw = (next) => {
    document.title = `${next.id} · ${next.title} — Switchyard`;
    replace(meta, ...metaLine(next));
    replace(facts, ...factsLine(next));
    replace(actions, pauseButton(next, refresh));
    if (next.status) nowUpdate(now, next.status);
  };
  draw(tk);
  return { head, update: draw };
}

/** State, the pause, whom it waits on, the PR. @param {any} tk */
function metaLine(tk) {
  const state = tk.status?.state ?? tk.state;
  return [
    stateBadge(state),
    ' ',
    tk.pause ? pauseLine(tk.pause) : null,
    tk.pause ? ' ' : null,
    h('span', { 'data-waiting-on': state }, waitingOn(tk, state)),
    ' · ',
    prPart(tk),
  ];
}

/** Who asked, where and when, and what it cost so far. @param {any} tk */
function factsLine(tk) {
  const line = t('ticket.head-asked', {
    requester: SLOT,
    source: tOr(`ticket.source.${tk.source}`, tk.source),
    opened: when(tk.createdAt),
  });
  return [
    ...line.split(SLOT).flatMap((part, i) => (i ? [person(tk.owners?.requester), part] : [part])),
    ' · ',
    h('span', { 'data-cost': 'ticket' }, t('ticket.cost', { cost: usd(tk.costUsd ?? 0) })),
  ];
}

const SLOT = '\u0000';

/** Whom the ticket waits on, in words. @param {any} tk @param {string} state */
function waitingOn(tk, state) {
  if (state === 'paused') return t('ticket.waiting.paused', { who: tk.pause?.by ?? '?' });
  if (state === 'waiting')
    return t('ticket.waiting.answer', { who: tk.owners?.requester?.name ?? tk.owners?.requester?.id ?? '?' });
  if (state === 'blocked') return t('ticket.waiting.blocked');
  if (state === 'done') return tk.pr ? t('ticket.waiting.review') : t('ticket.waiting.nobody');
  return t('ticket.waiting.agent');
}

/** The PR as a link (http(s) only), or that there is none yet. @param {any} tk */
function prPart(tk) {
  const pr = tk.pr;
  if (!pr) return h('span', { class: 'muted', 'data-pr': '' }, t('ticket.no-pr'));
  const label = t('ticket.pr-label', { number: pr.number ?? '?' });
  const safe = typeof pr.url === 'string' && /^https?:\/\//.test(pr.url);
  return safe
    ? h('a', { href: pr.url, rel: 'noopener noreferrer', target: '_blank', 'data-pr': pr.url }, label)
    : h('span', { 'data-pr': '' }, label);
}
