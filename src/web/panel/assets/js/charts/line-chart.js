import uPlot from '../../vendor/uPlot.esm.js';
import { h } from '../dom.js';

/** Series colours: distinct, readable on white, the same order on every chart. */
export const COLORS = ['#2f5d62', '#c2571a', '#6a4c93', '#1b7f3b', '#a3242c', '#3a6ea5'];
/** The same hues, light enough to read on the dark page (issue 49 item 4). */
const DARK_COLORS = ['#86cdd2', '#f0a06a', '#b9a0e0', '#7fd39a', '#ff9ca0', '#8fb8ea'];

/**
 * @typedef {{ label: string, values: (number | null)[], unit?: string, digits?: number }} Series
 * @typedef {{ id: string, title: string, xs: number[], series: Series[], days?: boolean, yLabel?: string }} ChartSpec
 */

/**
 * A value as the legend and the table show it; `digits` after the point (money: issue 33 item 5).
 * @param {number | null | undefined} v @param {string} [unit] @param {number} [digits]
 */
export const shown = (v, unit = '', digits = undefined) =>
  v === null || v === undefined
    ? '—'
    : `${digits !== undefined ? v.toFixed(digits) : Number.isInteger(v) ? v : v.toFixed(1)}${unit}`;

/** An x value (seconds) as a date, or a date and time. @param {number} x @param {boolean} days */
export function xLabel(x, days) {
  const d = new Date(x * 1000);
  const lang = document.documentElement.lang || undefined;
  return days
    ? d.toLocaleDateString(lang, { timeZone: 'UTC', month: 'short', day: 'numeric' })
    : d.toLocaleTimeString(lang, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
}

/**
 * The numbers behind a chart as a table (the chart's text alternative), folded away.
 * @param {ChartSpec} spec @param {string} caption
 */
function dataTable(spec, caption, xHead = '') {
  return h(
    'details',
    { class: 'chart-data' },
    h('summary', null, caption),
    h(
      'table',
      { class: 'table' },
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          h('th', { scope: 'col' }, xHead),
          spec.series.map((s) => h('th', { scope: 'col', class: 'num' }, s.label)),
        ),
      ),
      h(
        'tbody',
        null,
        spec.xs.map((x, i) =>
          h(
            'tr',
            null,
            h('th', { scope: 'row' }, xLabel(x, spec.days ?? false)),
            spec.series.map((s) => h('td', { class: 'num' }, shown(s.values[i], s.unit, s.digits))),
          ),
        ),
      ),
    ),
  );
}

/**
 * One chart (uPlot on a canvas) in a figure with its title, and the same numbers as a table.
 * Answers the figure; `plot` is drawn once the figure is in the page and has a width.
 * @param {ChartSpec} spec @param {{ table: string, x: string, empty: string }} words
 */
export function lineChart(spec, words) {
  const plotBox = h('div', { class: 'chart-plot' });
  const figure = h(
    'figure',
    { class: 'chart', 'data-chart': spec.id },
    h('figcaption', null, h('h2', null, spec.title)),
    spec.series.length ? plotBox : h('p', { class: 'muted small' }, words.empty),
    dataTable(spec, words.table, words.x),
  );
  if (!spec.series.length) return { figure, plot: () => undefined };
  const plot = () => {
    const width = Math.max(280, plotBox.clientWidth || 560);
    // The canvas takes the page's colours, so the axes read in dark mode too (issue 49 item 4).
    const css = getComputedStyle(document.documentElement);
    const ink = css.getPropertyValue('--muted').trim() || '#5f6b67';
    const grid = { stroke: css.getPropertyValue('--line').trim() || '#dde2df', width: 1 };
    const axis = { stroke: ink, grid, ticks: grid };
    const colors = matchMedia('(prefers-color-scheme: dark)').matches ? DARK_COLORS : COLORS;
    return new uPlot(
      {
        width,
        height: 220,
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
        // The legend names the series; the numbers are in the table below (the cursor's values
        // would repeat them, one point at a time).
        legend: { live: false },
        axes: [
          { ...axis, space: 70, values: (_u, xs) => xs.map((x) => xLabel(x, spec.days ?? false)) },
          { ...axis, label: spec.yLabel ?? '', size: 60 },
        ],
        series: [
          { value: (_u, x) => (x === null ? '—' : xLabel(x, spec.days ?? false)) },
          ...spec.series.map((s, i) => ({
            label: s.label,
            stroke: colors[i % colors.length],
            width: 2,
            points: { show: spec.xs.length < 60, size: 6 },
            value: (/** @type {unknown} */ _u, /** @type {number | null} */ v) => shown(v, s.unit, s.digits),
          })),
        ],
      },
      [spec.xs, ...spec.series.map((s) => s.values)],
      plotBox,
    );
  };
  return { figure, plot };
}
