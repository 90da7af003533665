import { h } from '../dom.js';
import { t } from '../i18n.js';

/** Small pieces the Eval pages share (issue 29): money, shares, yes/no, a run's short date. */

/** USD as the runner's table shows it: four decimals (a task often costs well under a cent). @param {number | null} x */
export const usd = (x) => (x === null ? '—' : `$${x.toFixed(4)}`);

/** @param {number} x */
export const pct = (x) => `${(x * 100).toFixed(1)} %`;

/** @param {number} n */
export const num = (n) => n.toLocaleString(document.documentElement.lang || undefined);

/** pass@1 with its 95 % interval when the run repeated the tasks. @param {any} s a run's summary */
export const passAt1 = (s) =>
  s.runs > 1
    ? t('eval.pass-interval', {
        mean: pct(s.passAt1.mean),
        low: pct(s.passAt1.low),
        high: pct(s.passAt1.high),
      })
    : pct(s.passAt1.mean);

/** @param {boolean} ok */
export const yesNo = (ok) =>
  h('span', { class: `badge ${ok ? 'ok' : 'problem'}` }, ok ? t('eval.yes') : t('eval.no'));

/** A run's start as a short date and time, for the charts' axis. @param {string} iso */
export function shortWhen(iso) {
  return new Date(iso).toLocaleString(document.documentElement.lang || undefined, {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
}

/**
 * The page's own address for a run, a task run's trajectory (in an A/B run, an arm's).
 * @param {string} run @param {string} [task] @param {number} [n] @param {string} [arm]
 */
export const evalHref = (run, task, n, arm) =>
  `#/eval/${encodeURIComponent(run)}${task ? `/${encodeURIComponent(task)}/${n}${arm ? `/${arm}` : ''}` : ''}`;

/** The model and provider a run used, the oracle marked. @param {any} meta */
export const modelLine = (meta) => [
  `${meta.model} · ${meta.provider}`,
  meta.oracle ? h('span', { class: 'badge quiet' }, t('eval.oracle')) : null,
];
