import { h } from '../dom.js';
import { t } from '../i18n.js';
import { pct, usd } from './eval-bits.js';

/**
 * An A/B run's two arms side by side (issue 29): resolved, resolve rate and cost for the
 * published prompts and the candidate, and the candidate's difference with its 95 % interval,
 * paired by task run. Shown on the run's page and, once an "Evaluate" run finishes, on Versions.
 * @param {any} body `GET /api/eval/runs/:run` — its `meta`, `arms` and `comparison`
 */
export function armsComparison(body) {
  const { meta, arms, comparison: c } = body;
  const names = { published: meta.prompts.published, candidate: candidateName(meta.prompts.candidate) };
  const side = (/** @type {'published' | 'candidate'} */ arm) => {
    const s = arms[arm];
    return {
      resolved: `${s.resolved} / ${s.tasks * s.runs}`,
      rate: pct(c.resolveRate[arm]),
      cost: usd(c.costUsd[arm]),
      perResolved: usd(s.costPerResolvedUsd),
    };
  };
  const p = side('published');
  const k = side('candidate');
  const rows = [
    ['resolved', p.resolved, k.resolved, ''],
    ['rate', p.rate, k.rate, difference(c.resolveRate.difference, (x) => signed(x * 100, 1, '', ' pp'))],
    ['cost', p.cost, k.cost, difference(c.costUsd.difference, (x) => signed(x, 4, '$', ''))],
    ['per-resolved', p.perResolved, k.perResolved, ''],
  ];
  return h(
    'div',
    { class: 'eval-compare' },
    h(
      'div',
      { class: 'table-scroll' },
      h(
        'table',
        { class: 'table eval-arms' },
        h('caption', null, t('eval.ab.caption', { pairs: c.pairs, leftOut: c.leftOut })),
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            h('td'),
            h('th', { scope: 'col' }, t('eval.ab.published', { name: names.published })),
            h('th', { scope: 'col' }, t('eval.ab.candidate', { name: names.candidate })),
            h('th', { scope: 'col' }, t('eval.ab.difference')),
          ),
        ),
        h(
          'tbody',
          null,
          rows.map(([key, a, b, d]) =>
            h(
              'tr',
              { 'data-row': key },
              h('th', { scope: 'row' }, t(`eval.ab.row.${key}`)),
              h('td', { class: 'num' }, a),
              h('td', { class: 'num' }, b),
              h('td', { class: 'num' }, d),
            ),
          ),
        ),
      ),
    ),
    h('p', { class: 'muted small' }, verdict(c)),
  );
}

/**
 * A candidate as a person reads it: the panel's own draft (`draft`, or `draft /tmp/…/draft.json`
 * as the run records it) is "the draft"; a saved version keeps its name (`r12`).
 * @param {string | null} name
 */
export const candidateName = (name) =>
  name === 'draft' || name?.startsWith('draft ') ? t('eval.ab.draft') : (name ?? '—');

/** A signed amount: `+1.5 pp`, `−$0.0012`, `±0.0 pp`. @param {number} x @param {number} digits @param {string} prefix @param {string} unit */
const signed = (x, digits, prefix, unit) =>
  `${x > 0 ? '+' : x < 0 ? '−' : '±'}${prefix}${Math.abs(x).toFixed(digits)}${unit}`;

/** @param {{ mean: number, low: number | null, high: number | null }} d @param {(x: number) => string} fmt */
function difference(d, fmt) {
  return d.low === null || d.high === null
    ? t('eval.ab.no-interval', { mean: fmt(d.mean) })
    : t('eval.ab.interval', { mean: fmt(d.mean), low: fmt(d.low), high: fmt(d.high) });
}

/**
 * One sentence on what the numbers allow one to say: a difference is only "better" or "worse"
 * when its interval leaves zero out.
 * @param {any} c
 */
function verdict(c) {
  const d = c.resolveRate.difference;
  if (c.pairs === 0) return t('eval.ab.verdict.none');
  if (d.low === null || d.high === null) return t('eval.ab.verdict.too-few', { pairs: c.pairs });
  if (d.low > 0) return t('eval.ab.verdict.better');
  if (d.high < 0) return t('eval.ab.verdict.worse');
  return t('eval.ab.verdict.unclear');
}
