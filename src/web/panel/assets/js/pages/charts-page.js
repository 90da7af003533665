import { get } from '../api.js';
import { lineChart } from '../charts/line-chart.js';
import { h, replace } from '../dom.js';
import { t, tOr } from '../i18n.js';
import { budgetBlock } from './budget-form.js';
import { costSection, costSpec } from './cost-section.js';

const RANGES = [7, 30, 90];
const daySeconds = (/** @type {string} */ day) => Date.parse(day) / 1000;
const kindName = (/** @type {string} */ k) => tOr(`charts.kind.${k}`, k);
const seconds = (/** @type {number} */ ms) => Math.round(ms / 100) / 10;

/** The session kinds any day names under `field` (`tokens`, `turns`), in a stable order. */
function kindsOf(/** @type {any[]} */ days, /** @type {string} */ field) {
  return [...new Set(days.flatMap((d) => Object.keys(d[field])))].sort();
}

/** @param {any[]} days @returns {import('../charts/line-chart.js').ChartSpec[]} */
function dailySpecs(days) {
  const xs = days.map((d) => daySeconds(d.day));
  const tokenKinds = kindsOf(days, 'tokens');
  const turnKinds = kindsOf(days, 'turns');
  const tok = (/** @type {any} */ d, /** @type {string} */ k) =>
    d.tokens[k] ?? { prompt: 0, completion: 0, cacheHit: 0 };
  return [
    {
      id: 'tokens',
      title: t('charts.tokens'),
      xs,
      days: true,
      series: tokenKinds.map((k) => ({
        label: kindName(k),
        values: days.map((d) => tok(d, k).prompt + tok(d, k).completion),
      })),
    },
    {
      id: 'cache',
      title: t('charts.cache'),
      xs,
      days: true,
      yLabel: '%',
      series: tokenKinds.map((k) => ({
        label: kindName(k),
        unit: ' %',
        values: days.map((d) =>
          tok(d, k).prompt ? Math.round((tok(d, k).cacheHit / tok(d, k).prompt) * 1000) / 10 : null,
        ),
      })),
    },
    {
      id: 'tickets',
      title: t('charts.tickets'),
      xs,
      days: true,
      series: /** @type {const} */ (['opened', 'done', 'blocked']).map((e) => ({
        label: t(`charts.tickets.${e}`),
        values: days.map((d) => d.tickets[e]),
      })),
    },
    {
      id: 'ack',
      title: t('charts.ack'),
      xs,
      days: true,
      yLabel: 's',
      series: [
        {
          label: t('charts.mean'),
          unit: ' s',
          values: days.map((d) => (d.ack.n ? seconds(d.ack.meanMs) : null)),
        },
        {
          label: t('charts.max'),
          unit: ' s',
          values: days.map((d) => (d.ack.n ? seconds(d.ack.maxMs) : null)),
        },
      ],
    },
    {
      id: 'turns',
      title: t('charts.turns'),
      xs,
      days: true,
      yLabel: 's',
      series: turnKinds.map((k) => ({
        label: kindName(k),
        unit: ' s',
        values: days.map((d) => (d.turns[k]?.n ? seconds(d.turns[k].meanMs) : null)),
      })),
    },
  ];
}

/** @param {{ now: any, history: any[] }} depth @returns {import('../charts/line-chart.js').ChartSpec} */
function depthSpec({ now, history }) {
  const samples = [...history.filter((s) => s.at < now.at), now];
  const names = Object.keys(now.queues).sort();
  return {
    id: 'depth',
    title: t('charts.depth'),
    xs: samples.map((s) => Math.floor(s.at / 1000)),
    series: names.map((n) => ({ label: n, values: samples.map((s) => s.queues[n]?.waiting ?? null) })),
  };
}

/**
 * Charts (issue 17): the model cost per day (issue 33 item 5), tokens and cache-hit share by session kind, tickets opened, done and
 * blocked, time to acknowledgement and turn durations per day, and each queue's depth over the
 * last day. Each chart has its numbers in a table beside it.
 */
export async function chartsPage(/** @type {HTMLElement} */ root, /** @type {string[]} */ args) {
  const range = RANGES.includes(Number(args[0])) ? Number(args[0]) : 30;
  const [{ days }, depth, budgets] = await Promise.all([
    get(`/api/stats/daily?days=${range}`),
    get('/api/stats/queue-depth'),
    budgetBlock(),
  ]);
  // Issue 33 item 5: the cost per day first, its split and the budgets below the charts.
  const cost = costSection(days, range, budgets);
  const words = { table: t('charts.numbers'), x: t('charts.when'), empty: t('charts.empty') };
  const costChart = costSpec(
    days,
    days.map((/** @type {any} */ d) => daySeconds(d.day)),
  );
  const charts = [costChart, ...dailySpecs(days), depthSpec(depth)].map((spec) => lineChart(spec, words));
  replace(
    root,
    h(
      'div',
      { class: 'page-head' },
      h('div', null, h('h1', null, t('page.charts')), h('p', { class: 'muted small' }, t('charts.hint'))),
      h(
        'nav',
        { class: 'chart-ranges', 'aria-label': t('charts.range') },
        RANGES.map((r) =>
          h(
            'a',
            { href: `#/charts/${r}`, 'aria-current': r === range ? 'page' : null },
            t('charts.days', { n: r }),
          ),
        ),
      ),
    ),
    h(
      'div',
      { class: 'chart-grid' },
      charts.map((c) => c.figure),
    ),
    cost,
  );
  for (const c of charts) c.plot();
}
