import { get } from '../api.js';
import { runsChart } from '../charts/svg-chart.js';
import { h, replace, when } from '../dom.js';
import { t } from '../i18n.js';
import { evalHref, modelLine, passAt1, pct, shortWhen, usd } from './eval-bits.js';
import { evalRunView } from './eval-run.js';
import { evalTrajectoryView } from './eval-trajectory.js';
import { abRunStatus } from './evaluate-card.js';

/**
 * Eval (issue 29): the runs of `npm run eval` the results folder holds, newest first, with
 * charts of resolve rate and cost per resolved task across them; a run's per-task outcomes
 * (`#/eval/<run>`); a task run's kept trajectory (`#/eval/<run>/<task>/<n>`). A run whose
 * results.json cannot be read is listed with the reason.
 * @param {HTMLElement} root
 * @param {string[]} args
 */
export async function evalPage(root, args) {
  const [run, task, n, arm] = args.map(decodeURIComponent);
  if (run && task && n) return evalTrajectoryView(root, run, task, Number(n), arm);
  if (run) return evalRunView(root, run);
  const { dir, runs } = await get('/api/eval/runs');
  const read = runs.filter((/** @type {any} */ r) => r.state === 'ok');
  // The last "Evaluate" started from Versions: running, or how it ended (empty before any).
  const ab = abRunStatus();
  await ab.show();
  replace(
    root,
    h(
      'div',
      { class: 'page-head' },
      h('div', null, h('h1', null, t('page.eval')), h('p', { class: 'muted small' }, t('eval.hint'))),
    ),
    ab.el,
    runs.length === 0 ? emptyState(dir) : runsTable(runs),
    read.length ? charts([...read].reverse()) : null,
  );
}

/** @param {string} dir */
function emptyState(dir) {
  return h(
    'section',
    { class: 'card eval-empty' },
    h('h2', null, t('eval.empty.title')),
    h('p', null, t('eval.empty.how')),
    h('pre', { class: 'text' }, h('code', null, 'npm run eval -- --oracle')),
    h('p', { class: 'muted small' }, t('eval.empty.where', { dir })),
  );
}

const COLUMNS = ['when', 'model', 'size', 'resolved', 'honest', 'pass', 'cost', 'per-resolved'];

/** @param {any[]} runs */
function runsTable(runs) {
  return h(
    'div',
    { class: 'table-scroll' },
    h(
      'table',
      { class: 'table eval-runs' },
      h('caption', { class: 'sr-only' }, t('eval.runs.caption')),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          COLUMNS.map((c) => h('th', { scope: 'col' }, t(`eval.col.${c}`))),
        ),
      ),
      h('tbody', null, runs.map(runRow)),
    ),
  );
}

/** @param {any} r */
function runRow(r) {
  if (r.state !== 'ok')
    return h(
      'tr',
      { 'data-run': r.run, 'data-state': r.state },
      h('td', null, h('code', null, r.run)),
      h(
        'td',
        { colspan: COLUMNS.length - 1 },
        h(
          'span',
          { class: `badge ${r.state === 'unreadable' ? 'problem' : 'quiet'}` },
          t(`eval.state.${r.state}`),
        ),
        ' ',
        r.state === 'unreadable' ? h('span', { class: 'eval-problem' }, r.problem) : t('eval.unfinished'),
      ),
    );
  const s = r.summary;
  const total = s.tasks * s.runs;
  return h(
    'tr',
    { 'data-run': r.run, 'data-state': 'ok' },
    h('td', { class: 'eval-when' }, h('a', { href: evalHref(r.run) }, when(r.meta.startedAt))),
    h('td', null, modelLine(r.meta)),
    h('td', { class: 'num' }, t('eval.size', { tasks: s.tasks, runs: s.runs })),
    h('td', { class: 'num' }, `${s.resolved} / ${total}`),
    h('td', { class: `num${s.honest < total ? ' bad' : ''}` }, `${s.honest} / ${total}`),
    h('td', { class: 'num' }, passAt1(s)),
    h('td', { class: 'num' }, usd(s.costUsd)),
    h('td', { class: 'num' }, usd(s.costPerResolvedUsd)),
  );
}

/** Resolve rate and cost per resolved task, oldest run first. @param {any[]} runs */
function charts(runs) {
  const label = (/** @type {any} */ r) => shortWhen(r.meta.startedAt);
  const rates = runs.map((r) => r.summary.passAt1);
  const costs = runs.map((r) => r.summary.costPerResolvedUsd);
  return h(
    'div',
    { class: 'chart-grid eval-charts' },
    runsChart({
      id: 'resolve-rate',
      title: t('eval.chart.resolve'),
      description: t('eval.chart.resolve-desc', {
        n: runs.length,
        first: pct(rates[0].mean),
        last: pct(rates[rates.length - 1].mean),
      }),
      column: t('eval.col.pass'),
      max: 1,
      axis: (v) => `${Math.round(v * 100)} %`,
      points: runs.map((r) => ({
        label: label(r),
        value: r.summary.passAt1.mean,
        low: r.summary.passAt1.low,
        high: r.summary.passAt1.high,
        text: passAt1(r.summary),
      })),
    }),
    runsChart({
      id: 'cost-per-resolved',
      title: t('eval.chart.cost'),
      description: t('eval.chart.cost-desc', {
        n: runs.length,
        first: usd(costs[0]),
        last: usd(costs[costs.length - 1]),
      }),
      column: t('eval.col.per-resolved'),
      axis: (v) => `$${v >= 0.01 ? v.toFixed(2) : v.toPrecision(1)}`,
      points: runs.map((r) => ({
        label: label(r),
        value: r.summary.costPerResolvedUsd,
        text: usd(r.summary.costPerResolvedUsd),
      })),
    }),
  );
}
