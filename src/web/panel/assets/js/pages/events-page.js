import { get } from '../api.js';
import { h, replace, when } from '../dom.js';
import { t } from '../i18n.js';
import { excerptCell, reasonBlock } from './event-reasons.js';

/** Each fate's label and badge (issue 33 item 2); written out so the catalog check sees the keys. */
const FATES = {
  received: { label: () => t('events.fate.received'), badge: 'quiet' },
  waiting: { label: () => t('events.fate.waiting'), badge: 'quiet' },
  opened: { label: () => t('events.fate.opened'), badge: 'ok' },
  attached: { label: () => t('events.fate.attached'), badge: 'ok' },
  command: { label: () => t('events.fate.command'), badge: '' },
  ignored: { label: () => t('events.fate.ignored'), badge: 'quiet' },
  refused: { label: () => t('events.fate.refused'), badge: 'problem' },
  duplicate: { label: () => t('events.fate.duplicate'), badge: 'warn' },
};
const CHANNELS = ['github', 'feishu', 'local'];
/** The free-text filters: name and label. */
const TEXT_FILTERS = [
  ['repo', () => t('events.filter.repo')],
  ['chat', () => t('events.filter.chat')],
  ['person', () => t('events.filter.person')],
];

/** A labelled control in the filter row. */
const field = (/** @type {string} */ id, /** @type {string} */ label, /** @type {HTMLElement} */ control) =>
  h('div', { class: 'field' }, h('label', { for: id }, label), control);

/** A select of `values` with "all" first. */
function choice(/** @type {string} */ id, /** @type {[string, string][]} */ values) {
  return h(
    'select',
    { id, name: id.replace('events-', '') },
    h('option', { value: '' }, t('events.all')),
    values.map(([value, label]) => h('option', { value }, label)),
  );
}

/** The fate's badge, then its tickets as links and its reason. */
function fateCell(/** @type {any} */ e) {
  const fate = FATES[/** @type {keyof typeof FATES} */ (e.fate)];
  return h(
    'td',
    null,
    h('span', { class: `badge ${fate?.badge ?? ''}`, 'data-fate': e.fate }, fate ? fate.label() : e.fate),
    (e.tickets ?? []).map((/** @type {string} */ id) =>
      h('a', { class: 'ticket-link', href: `#/tickets/${encodeURIComponent(id)}` }, id),
    ),
    e.reason ? reasonBlock(e.reason) : null,
  );
}

function row(/** @type {any} */ e) {
  return h(
    'tr',
    { 'data-event': e.id, 'data-fate': e.fate },
    h('td', null, when(e.at)),
    h('td', null, e.channel, e.kind ? h('div', { class: 'muted small' }, e.kind) : null),
    h('td', null, e.repo ?? e.chat ?? '—'),
    h('td', null, e.personName ? `${e.personName} (${e.person})` : (e.person ?? '—')),
    excerptCell(e.cardId),
    fateCell(e),
  );
}

function table(/** @type {any[]} */ events) {
  return h(
    'table',
    { class: 'table events' },
    h('caption', { class: 'sr-only' }, t('events.caption')),
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        h('th', { scope: 'col' }, t('events.col.at')),
        h('th', { scope: 'col' }, t('events.col.channel')),
        h('th', { scope: 'col' }, t('events.col.where')),
        h('th', { scope: 'col' }, t('events.col.who')),
        h('th', { scope: 'col' }, t('events.col.message')),
        h('th', { scope: 'col' }, t('events.col.fate')),
      ),
    ),
    h('tbody', null, events.map(row)),
  );
}

/** The filter form's values as the API's query string (empty ones left out). */
function queryOf(/** @type {HTMLFormElement} */ form, /** @type {string | undefined} */ cursor) {
  const q = new URLSearchParams();
  for (const [name, value] of new FormData(form)) if (String(value).trim()) q.set(name, String(value).trim());
  if (cursor) q.set('cursor', cursor);
  return q.toString();
}

/**
 * Events inbox (issue 33 item 2): every incoming event and card with its fate, newest first,
 * filterable by channel, repository, chat, person and fate; each links to its ticket or says why.
 * The first page refreshes every few seconds; "Older" appends the next page.
 */
export async function eventsPage(/** @type {HTMLElement} */ root) {
  const form = /** @type {HTMLFormElement} */ (
    h(
      'form',
      { class: 'row events-filters', role: 'search', 'aria-label': t('events.filters') },
      field(
        'events-channel',
        t('events.col.channel'),
        choice(
          'events-channel',
          CHANNELS.map((c) => [c, c]),
        ),
      ),
      field(
        'events-fate',
        t('events.col.fate'),
        choice(
          'events-fate',
          Object.entries(FATES).map(([f, v]) => [f, v.label()]),
        ),
      ),
      TEXT_FILTERS.map(([name, label]) =>
        field(`events-${name}`, label(), h('input', { id: `events-${name}`, name, type: 'text' })),
      ),
      h('button', { type: 'submit' }, t('events.apply')),
    )
  );
  const list = h('div', { 'aria-live': 'polite' });
  const more = h('p');
  replace(
    root,
    h(
      'div',
      { class: 'page-head' },
      h('div', null, h('h1', null, t('page.events')), h('p', { class: 'muted small' }, t('events.hint'))),
    ),
    form,
    list,
    more,
  );
  /** @type {any[]} */
  let shown = [];
  const draw = async (/** @type {string | undefined} */ cursor) => {
    const page = await get(`/api/events?${queryOf(form, cursor)}`);
    shown = cursor ? [...shown, ...page.events] : page.events;
    replace(list, shown.length ? table(shown) : h('p', { class: 'muted' }, t('events.empty')));
    replace(
      more,
      page.next
        ? h(
            'button',
            { type: 'button', class: 'quiet', onclick: () => void draw(page.next) },
            t('events.older'),
          )
        : null,
    );
  };
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    void draw(undefined);
  });
  for (const select of form.querySelectorAll('select'))
    select.addEventListener('change', () => void draw(undefined));
  await draw(undefined);
  const timer = setInterval(() => {
    // Live while on the first page; a reader paging back keeps what they loaded.
    if (!list.isConnected) clearInterval(timer);
    else if (shown.length <= 50 && !form.contains(document.activeElement))
      void draw(undefined).catch(() => clearInterval(timer));
  }, 5000);
}
