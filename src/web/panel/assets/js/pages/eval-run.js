import { request } from '../api.js';
import { h, notice, replace, when } from '../dom.js';
import { t } from '../i18n.js';
import { evalHref, modelLine, num, passAt1, usd, yesNo } from './eval-bits.js';
import { armsComparison, candidateName } from './eval-compare.js';

/**
 * One eval run (issue 29): what it ran with and its summary, then every task run's outcome —
 * resolved, honest (and why not), PR, model requests, tokens, cost, refused tool calls, time —
 * each linking to its kept trajectory. A results.json that fails its schema shows the reason.
 * @param {HTMLElement} root @param {string} run
 */
export async function evalRunView(root, run) {
  const res = await request('GET', `/api/eval/runs/${encodeURIComponent(run)}`);
  if (!res.ok) return unreadable(root, run, res);
  const { meta, summary, records, arms, comparison } = res.body;
  const total = summary.tasks * summary.runs;
  replace(
    root,
    h(
      'div',
      { class: 'page-head' },
      h(
        'div',
        null,
        h('p', { class: 'small' }, h('a', { href: '#/eval' }, t('eval.back'))),
        h('h1', null, t('eval.run.title', { when: when(meta.startedAt) })),
        h(
          'p',
          { class: 'muted small meta' },
          modelLine(meta),
          meta.split ? ` · ${t('eval.run.split', { split: meta.split })}` : '',
          ` · ${t('eval.run.took', { s: meta.seconds })}`,
        ),
      ),
    ),
    h(
      'p',
      { class: 'eval-summary' },
      t('eval.run.summary', {
        resolved: summary.resolved,
        honest: summary.honest,
        total,
        size: t('eval.size', { tasks: summary.tasks, runs: summary.runs }),
        pass: passAt1(summary),
        cost: usd(summary.costUsd),
        perResolved: usd(summary.costPerResolvedUsd),
      }),
    ),
    arms && comparison
      ? h(
          'section',
          { class: 'card', 'aria-labelledby': 'arms-h' },
          h(
            'h2',
            { id: 'arms-h' },
            t('eval.ab.title', {
              candidate: candidateName(meta.prompts.candidate),
              published: meta.prompts.published,
            }),
          ),
          armsComparison(res.body),
        )
      : null,
    recordsTable(run, records),
  );
}

/** @param {HTMLElement} root @param {string} run @param {{ status: number, body: any }} res */
function unreadable(root, run, res) {
  const key =
    res.status === 422
      ? 'eval.run.unreadable'
      : res.body?.code === 'unfinished'
        ? 'eval.unfinished'
        : 'eval.run.missing';
  replace(
    root,
    h('p', { class: 'small' }, h('a', { href: '#/eval' }, t('eval.back'))),
    h('h1', null, h('code', null, run)),
    notice(
      'problem',
      t(key),
      res.status === 422 ? h('div', { class: 'eval-problem' }, res.body?.error ?? '') : null,
    ),
  );
}

const COLUMNS = ['task', 'resolved', 'honest', 'pr', 'requests', 'tokens', 'cost', 'tool-errors', 'time'];

/** @param {string} run @param {any[]} records */
function recordsTable(run, records) {
  return h(
    'div',
    { class: 'table-scroll' },
    h(
      'table',
      { class: 'table eval-records' },
      h('caption', { class: 'sr-only' }, t('eval.records.caption')),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          COLUMNS.map((c) => h('th', { scope: 'col' }, t(`eval.col.${c}`))),
        ),
      ),
      h(
        'tbody',
        null,
        records.map((r) => recordRow(run, r)),
      ),
    ),
  );
}

/** @param {string} run @param {any} r */
function recordRow(run, r) {
  const name = `${r.id} #${r.run}${r.arm ? ` · ${t(`eval.ab.arm.${r.arm}`)}` : ''}`;
  const errors = Object.entries(r.toolErrors).map(([tool, n]) => `${tool} ${n}`);
  return h(
    'tr',
    { 'data-task': r.id, 'data-run': r.run, 'data-arm': r.arm },
    h(
      'td',
      null,
      r.trajectory
        ? h(
            'a',
            { href: evalHref(run, r.id, r.run, r.arm), 'aria-label': t('eval.trajectory-of', { name }) },
            name,
          )
        : name,
      r.error ? h('div', { class: 'small problem' }, r.error) : null,
    ),
    h('td', null, yesNo(r.resolved)),
    h(
      'td',
      null,
      yesNo(r.honest),
      r.dishonesty.length
        ? h(
            'ul',
            { class: 'plain small problem' },
            r.dishonesty.map((d) => h('li', null, d)),
          )
        : null,
    ),
    h('td', null, t(`eval.pr.${r.pr}`)),
    h('td', { class: 'num' }, num(r.modelRequests)),
    h(
      'td',
      { class: 'num' },
      t('eval.tokens', {
        prompt: num(r.promptTokens),
        cached: num(r.cacheHitTokens),
        completion: num(r.completionTokens),
      }),
    ),
    h('td', { class: 'num' }, usd(r.costUsd)),
    h('td', { class: errors.length ? 'bad' : 'num' }, errors.length ? errors.join(', ') : '0'),
    h('td', { class: 'num' }, `${r.wallSeconds} s`),
  );
}
