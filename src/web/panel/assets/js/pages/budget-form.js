import { get, request } from '../api.js';
import { h, notice, replace, toast, when } from '../dom.js';
import { t } from '../i18n.js';
import { usd } from './cost-section.js';

/** A budget as people read it: dollars, or "none" for 0. @param {number} v */
const limit = (v) => (v > 0 ? usd(v) : t('charts.budget-none'));

/** The tickets paused for budget, each a link to its page. @param {string[]} ids */
const heldLinks = (ids) =>
  ids.map((id, i) => [i ? ', ' : '', h('a', { href: `#/tickets/${encodeURIComponent(id)}` }, id)]);

/**
 * What is in force (`GET /api/budgets`): the budgets and who set them, the tickets they paused,
 * and whether routing waits for the day's budget.
 * @param {any} b
 */
function budgetFacts(b) {
  const from =
    b.from === 'config'
      ? t('budget.from-config')
      : t('budget.from-panel', { by: b.from.by, at: when(b.from.at) });
  return [
    h(
      'p',
      { 'data-budgets': '' },
      t('charts.budgets', { ticket: limit(b.ticketUsd), day: limit(b.dailyUsd) }),
      ' · ',
      h('span', { class: 'muted' }, from),
    ),
    b.held.length ? h('p', { 'data-held': '' }, t('budget.held'), ' ', heldLinks(b.held)) : null,
    b.mainHeld ? notice('problem', t('budget.main-held', { since: when(b.mainHeld.since) })) : null,
  ];
}

/** One labelled dollar field. @param {string} id @param {string} label @param {number} value */
const dollars = (id, label, value) =>
  h(
    'div',
    { class: 'field grow' },
    h('label', { for: id }, label),
    h('input', { id, inputmode: 'decimal', value: String(value), 'aria-describedby': 'budget-hint' }),
  );

/** The form's two budgets, or the first field that is no amount. @param {HTMLFormElement} form */
function readForm(form) {
  /** @type {Record<string, number>} */
  const out = {};
  for (const [id, key] of [
    ['budget-ticket', 'ticketUsd'],
    ['budget-day', 'dailyUsd'],
  ]) {
    const input = /** @type {HTMLInputElement} */ (form.querySelector(`#${id}`));
    const v = Number(input.value.trim().replace(/^\$/, ''));
    if (input.value.trim() === '' || !Number.isFinite(v) || v < 0) return { bad: input };
    out[key] = v;
  }
  return { body: out };
}

/**
 * Issue 33 item 5: the budgets in force and a form to set them (`PUT /api/budgets`). Tickets the
 * new budgets allow go on at once; the toast names them.
 */
export async function budgetBlock() {
  const box = h('section', {
    class: 'chart budget-block',
    id: 'budgets',
    'aria-labelledby': 'budgets-title',
  });
  const draw = async () => {
    const b = await get('/api/budgets');
    const out = h('div', { 'aria-live': 'polite' });
    const form = /** @type {HTMLFormElement} */ (
      h(
        'form',
        { 'aria-label': t('budget.form') },
        h(
          'div',
          { class: 'row' },
          dollars('budget-ticket', t('budget.ticket'), b.ticketUsd),
          dollars('budget-day', t('budget.day'), b.dailyUsd),
        ),
        h('p', { id: 'budget-hint', class: 'muted small' }, t('budget.hint')),
        h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, t('budget.save'))),
      )
    );
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const read = readForm(form);
      if (read.bad)
        return replace(
          out,
          notice('problem', t('budget.bad', { field: read.bad.labels?.[0]?.textContent ?? '' })),
        );
      const res = await request('PUT', '/api/budgets', read.body);
      if (!res.ok) return replace(out, notice('problem', res.body?.error ?? String(res.status)));
      const resumed = res.body.resumed ?? [];
      toast(resumed.length ? t('budget.saved-resumed', { tickets: resumed.join(', ') }) : t('budget.saved'));
      await draw();
    });
    replace(box, h('h2', { id: 'budgets-title' }, t('budget.title')), budgetFacts(b), form, out);
  };
  await draw();
  return box;
}
