import { h } from '../dom.js';
import { t } from '../i18n.js';

/**
 * The Tickets filter row (issue 49 item 4): search, state, repository, requester, has PR and
 * what it waits on — each a parameter `GET /api/tickets` filters by on the server.
 */

const STATES = ['open', 'working', 'waiting', 'done', 'cancelled'];
const WAITING = ['answer', 'blocked', 'paused', 'budget'];

const field = (/** @type {string} */ id, /** @type {string} */ label, /** @type {HTMLElement} */ control) =>
  h('div', { class: 'field' }, h('label', { for: id }, label), control);

function choice(/** @type {string} */ name, /** @type {[string, string][]} */ values) {
  return h(
    'select',
    { id: `tickets-${name}`, name },
    h('option', { value: '' }, t('events.all')),
    values.map(([value, label]) => h('option', { value }, label)),
  );
}

/** A text input suggesting the values seen so far (repositories, requesters). */
function suggest(/** @type {string} */ name) {
  return [
    h('input', {
      id: `tickets-${name}`,
      name,
      type: 'text',
      list: `tickets-${name}-seen`,
      autocomplete: 'off',
    }),
    h('datalist', { id: `tickets-${name}-seen` }),
  ];
}

/** The form; `onChange` runs on every change (typing waits for a pause). */
export function ticketFilters(/** @type {() => void} */ onChange) {
  const form = /** @type {HTMLFormElement} */ (
    h(
      'form',
      { class: 'row events-filters tickets-filters', role: 'search', 'aria-label': t('tickets.filters') },
      field(
        'tickets-q',
        t('tickets.search'),
        h('input', {
          id: 'tickets-q',
          name: 'q',
          type: 'search',
          placeholder: t('tickets.search.hint'),
          'aria-keyshortcuts': '/',
          'data-search': '',
        }),
      ),
      field(
        'tickets-state',
        t('tickets.col.state'),
        choice(
          'state',
          STATES.map((s) => [s, t(`state.${s}`)]),
        ),
      ),
      field('tickets-repo', t('tickets.col.repository'), h('div', null, suggest('repo'))),
      field('tickets-requester', t('tickets.col.requester'), h('div', null, suggest('requester'))),
      field(
        'tickets-pr',
        t('tickets.filter.pr'),
        choice('pr', [
          ['yes', t('tickets.filter.pr.yes')],
          ['no', t('tickets.filter.pr.no')],
        ]),
      ),
      field(
        'tickets-waiting',
        t('tickets.filter.waiting'),
        choice(
          'waiting',
          WAITING.map((w) => [w, t(`tickets.waiting.${w}`)]),
        ),
      ),
    )
  );
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let typing;
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    onChange();
  });
  form.addEventListener('change', () => onChange());
  form.addEventListener('input', (ev) => {
    if (/** @type {HTMLElement} */ (ev.target).tagName !== 'INPUT') return;
    clearTimeout(typing);
    typing = setTimeout(onChange, 250);
  });
  return form;
}

/** The form's values as the API's query (empty ones left out). */
export function filterQuery(/** @type {HTMLFormElement} */ form) {
  const q = new URLSearchParams();
  for (const [name, value] of new FormData(form)) if (String(value).trim()) q.set(name, String(value).trim());
  return q.toString();
}

/** Adds the repositories and requesters of `tickets` to the suggestions. */
export function learnSuggestions(/** @type {HTMLFormElement} */ form, /** @type {any[]} */ tickets) {
  const add = (/** @type {string} */ name, /** @type {(string | null | undefined)[]} */ values) => {
    const list = form.querySelector(`#tickets-${name}-seen`);
    if (!list) return;
    const seen = new Set([...list.querySelectorAll('option')].map((o) => o.value));
    for (const v of values) {
      if (!v || seen.has(v)) continue;
      seen.add(v);
      list.append(h('option', { value: v }));
    }
  };
  add(
    'repo',
    tickets.map((tk) => tk.repo),
  );
  add(
    'requester',
    tickets.map((tk) => tk.owners?.requester?.name ?? tk.owners?.requester?.id),
  );
}
