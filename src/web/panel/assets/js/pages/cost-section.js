import { h } from '../dom.js';
import { t, tOr } from '../i18n.js';

/** Dollars as people read them: four decimals under a dollar, two above. @param {number} v */
export const usd = (v) => `$${v < 1 ? v.toFixed(4) : v.toFixed(2)}`;

const LIMIT = 10;

/** The range's cost summed by `field` (`tickets`, `repos`, `chats`), largest first. @param {any[]} days @param {string} field */
function sumBy(days, field) {
  /** @type {Record<string, number>} */
  const out = {};
  for (const d of days)
    for (const [k, v] of Object.entries(d.cost?.[field] ?? {})) out[k] = (out[k] ?? 0) + v;
  return Object.entries(out).sort((a, b) => b[1] - a[1]);
}

/**
 * Issue 33 item 5: the model cost per day, in all and by session kind (USD).
 * @param {any[]} days @param {number[]} xs @returns {import('../charts/line-chart.js').ChartSpec}
 */
export function costSpec(days, xs) {
  const kinds = [...new Set(days.flatMap((d) => Object.keys(d.cost?.kinds ?? {})))].sort();
  const money = { unit: ' USD', digits: 4 };
  return {
    id: 'cost',
    title: t('charts.cost'),
    xs,
    days: true,
    yLabel: 'USD',
    series: [
      { label: t('charts.cost.all'), ...money, values: days.map((d) => d.cost?.usd ?? 0) },
      ...kinds.map((k) => ({
        label: tOr(`charts.kind.${k}`, k),
        ...money,
        values: days.map((d) => d.cost?.kinds?.[k] ?? 0),
      })),
    ],
  };
}

/** One "cost by …" table; tickets link to their page. @param {string} field @param {[string, number][]} rows */
function byTable(field, rows) {
  const name = (/** @type {string} */ k) =>
    field === 'tickets' ? h('a', { href: `#/tickets/${encodeURIComponent(k)}` }, k) : k;
  return h(
    'figure',
    { class: 'chart', 'data-cost-by': field },
    h('h2', null, t(`charts.cost.${field}`)),
    rows.length
      ? h(
          'table',
          { class: 'table' },
          h(
            'tbody',
            null,
            rows
              .slice(0, LIMIT)
              .map(([k, v]) =>
                h('tr', null, h('th', { scope: 'row' }, name(k)), h('td', { class: 'num' }, usd(v))),
              ),
          ),
        )
      : h('p', { class: 'muted' }, t('charts.empty')),
  );
}

/**
 * The range's cost by ticket, repository and chat, and the budgets in force with a form to set
 * them (`budgetBlock`, issue 33 item 5).
 * @param {any[]} days @param {number} range @param {HTMLElement} budgets
 */
export function costSection(days, range, budgets) {
  const total = days.reduce((a, d) => a + (d.cost?.usd ?? 0), 0);
  const today = days.at(-1)?.cost?.usd ?? 0;
  return h(
    'section',
    { class: 'cost-section', 'aria-label': t('charts.cost-by', { n: range }) },
    h('h2', null, t('charts.cost-by', { n: range })),
    h('p', { 'data-cost-total': '' }, t('charts.cost-total', { total: usd(total), today: usd(today) })),
    h(
      'div',
      { class: 'chart-grid' },
      ['tickets', 'repos', 'chats'].map((f) => byTable(f, sumBy(days, f))),
      budgets,
    ),
  );
}
