import { h } from '../dom.js';
import { t } from '../i18n.js';

/**
 * A small chart of one value across runs (issue 29: the Eval page's resolve rate and cost per
 * resolved task), drawn as inline SVG — elements and attributes only, no style attribute, so the
 * page's policy (`style-src 'self'`) holds; colours come from panel.css. The SVG is one image
 * named by its heading and described in words; the numbers are in a table beneath it, and each
 * point carries its own title for a pointer.
 */

const NS = 'http://www.w3.org/2000/svg';
const W = 640;
const H = 240;
// Room beside the plot for the first and last run's date, centred under its point.
const PAD = { left: 72, right: 56, top: 16, bottom: 44 };
const MAX_X_LABELS = 8;

/**
 * @typedef {{ label: string, value: number | null, low?: number, high?: number, text: string }} Point
 * @typedef {{ id: string, title: string, description: string, points: Point[], max?: number,
 *   axis: (v: number) => string, column: string }} RunsChart
 */

/** An SVG element. @param {string} tag @param {Record<string, string | number>} [attrs] @param {...(Node | string)} children */
function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c);
  return el;
}

/** A round top for the y axis: 1, 2 or 5 times a power of ten at or above `v`. @param {number} v */
function niceMax(v) {
  if (!(v > 0)) return 1;
  const step = 10 ** Math.floor(Math.log10(v));
  return ([1, 2, 5, 10].find((m) => m * step >= v) ?? 10) * step;
}

/** @param {RunsChart} spec */
export function runsChart(spec) {
  const values = spec.points.flatMap((p) => (p.value === null ? [] : [p.high ?? p.value]));
  const max = spec.max ?? niceMax(Math.max(0, ...values) * 1.1);
  const n = spec.points.length;
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const x = (/** @type {number} */ i) => PAD.left + (n === 1 ? plotW / 2 : (i * plotW) / (n - 1));
  const y = (/** @type {number} */ v) => PAD.top + plotH - (Math.min(v, max) / max) * plotH;
  const titleId = `chart-${spec.id}-title`;
  const descId = `chart-${spec.id}-desc`;
  const svg = s(
    'svg',
    { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-labelledby': `${titleId} ${descId}`, class: 'runs-chart' },
    s('desc', { id: descId }, spec.description),
    ...[0, 0.5, 1].map((f) => gridLine(y(max * f), spec.axis(max * f))),
    ...xLabels(spec.points, x),
    line(spec.points, x, y),
    ...spec.points.flatMap((p, i) => point(p, x(i), y)),
  );
  return h(
    'figure',
    { class: 'chart svg-chart', 'data-chart': spec.id },
    h('h2', { id: titleId }, spec.title),
    svg,
    dataTable(spec),
  );
}

/** @param {number} yy @param {string} label */
const gridLine = (yy, label) =>
  s(
    'g',
    { class: 'grid' },
    s('line', { x1: PAD.left, x2: W - PAD.right, y1: yy, y2: yy }),
    s('text', { x: PAD.left - 8, y: yy + 4, 'text-anchor': 'end', class: 'axis-label' }, label),
  );

/** Every run's date under its point, thinned to at most 8. @param {Point[]} points @param {(i: number) => number} x */
function xLabels(points, x) {
  const every = Math.ceil(points.length / MAX_X_LABELS);
  return points.flatMap((p, i) =>
    i % every === 0 || i === points.length - 1
      ? [
          s(
            'text',
            { x: x(i), y: H - PAD.bottom + 20, 'text-anchor': 'middle', class: 'axis-label' },
            p.label,
          ),
        ]
      : [],
  );
}

/** The line through the points that have a value. @param {Point[]} points @param {(i: number) => number} x @param {(v: number) => number} y */
function line(points, x, y) {
  const at = points.flatMap((p, i) => (p.value === null ? [] : [`${x(i)},${y(p.value)}`]));
  return s('polyline', { class: 'series', points: at.join(' ') });
}

/** A run's point, its interval when it has one, and its words as a tooltip. @param {Point} p @param {number} xx @param {(v: number) => number} y */
function point(p, xx, y) {
  if (p.value === null) return [];
  const whisker =
    p.low !== undefined && p.high !== undefined && p.high > p.low
      ? [s('line', { class: 'interval', x1: xx, x2: xx, y1: y(p.low), y2: y(p.high) })]
      : [];
  return [
    ...whisker,
    s('circle', { class: 'dot', cx: xx, cy: y(p.value), r: 5 }, s('title', {}, `${p.label}: ${p.text}`)),
  ];
}

/** The numbers behind the chart, folded away. @param {RunsChart} spec */
function dataTable(spec) {
  return h(
    'details',
    { class: 'chart-data' },
    h('summary', null, t('eval.chart.numbers')),
    h(
      'table',
      { class: 'table compact' },
      h(
        'thead',
        null,
        h('tr', null, h('th', { scope: 'col' }, t('eval.col.when')), h('th', { scope: 'col' }, spec.column)),
      ),
      h(
        'tbody',
        null,
        spec.points.map((p) => h('tr', null, h('td', null, p.label), h('td', { class: 'num' }, p.text))),
      ),
    ),
  );
}
