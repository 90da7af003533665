import { request } from '../api.js';
import { h, notice, replace, when } from '../dom.js';
import { t } from '../i18n.js';
import { evalHref } from './eval-bits.js';
import { armsComparison, candidateName } from './eval-compare.js';

/** How often a running evaluation is asked about while its card is shown. */
const POLL_MS = 2000;

/**
 * The panel's "Evaluate" (issue 29): the A/B eval run of a prompt change against the published
 * prompts (`POST /api/eval/ab`, run by the web process with the eval model configured there), and
 * the state of the last one — its output while it runs, the arms compared once it finished.
 * One run at a time for the whole deployment; the server refuses a second (409).
 * @returns {{ el: HTMLElement, start: (body: { version: number } | { draft: unknown }) => Promise<void>, show: () => Promise<void> }}
 */
export function abRunStatus() {
  const el = h('div', { class: 'eval-ab-state', 'aria-live': 'polite' });
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  /** @param {unknown} refusal why a start was refused, shown above the run @param {boolean} polled */
  const show = async (refusal = null, polled = false) => {
    clearTimeout(timer);
    const res = await request('GET', '/api/eval/ab');
    const run = res.ok ? res.body.run : null;
    // "Already running" is moot once the run it met has ended.
    const kept = polled && run?.state !== 'running' ? null : refusal;
    replace(el, kept, run ? await runView(run) : null);
    if (run?.state === 'running')
      timer = setTimeout(
        () => (el.isConnected ? void show(kept, true).catch(() => undefined) : undefined),
        POLL_MS,
      );
  };
  const start = async (/** @type {{ version: number } | { draft: unknown }} */ body) => {
    const res = await request('POST', '/api/eval/ab', body);
    if (res.status === 202) return show();
    const key =
      res.status === 409
        ? 'evaluate.busy'
        : res.status === 422
          ? 'evaluate.refused'
          : 'evaluate.failed-start';
    await show(notice('problem', t(key, { status: res.status }), refusalDetail(res.body)));
  };
  return { el, start, show: () => show() };
}

/** @param {any} body */
const refusalDetail = (body) =>
  body?.error ? h('div', { class: 'small eval-problem' }, String(body.error)) : null;

/** @param {any} run `GET /api/eval/ab`'s run */
async function runView(run) {
  const candidate = candidateName(run.candidate);
  const lines = run.lines.length
    ? h('pre', { class: 'text eval-ab-lines' }, run.lines.slice(-8).join('\n'))
    : null;
  if (run.state === 'running')
    return h(
      'div',
      { 'data-state': 'running' },
      notice(
        'info',
        t(run.oracle ? 'evaluate.running-oracle' : 'evaluate.running', {
          candidate,
          at: when(run.startedAt),
        }),
      ),
      lines,
    );
  if (run.state === 'failed' || run.exitCode !== 0 || !run.run)
    return h(
      'div',
      { 'data-state': 'failed' },
      notice('problem', t('evaluate.failed', { candidate, code: run.exitCode ?? '—' })),
      lines,
    );
  const results = await request('GET', `/api/eval/runs/${encodeURIComponent(run.run)}`);
  return h(
    'div',
    { 'data-state': 'finished' },
    notice(
      'ok',
      t('evaluate.finished', { candidate, at: when(run.finishedAt) }),
      ' ',
      h('a', { href: evalHref(run.run) }, t('evaluate.open-run')),
    ),
    results.ok && results.body.arms && results.body.comparison
      ? armsComparison(results.body)
      : notice('problem', t('evaluate.unreadable'), refusalDetail(results.body)),
  );
}

/**
 * The Versions page's card: evaluate the unsaved draft (kept by the Prompts page for the tab's
 * life) or, from the table, a saved version; then the last run's state.
 * @param {{ draft: unknown | null }} opts the draft as `PUT /api/prompts` takes it, or null
 */
export function evaluateCard({ draft }) {
  const status = abRunStatus();
  const card = h(
    'section',
    { class: 'card', 'aria-labelledby': 'evaluate-h' },
    h('h2', { id: 'evaluate-h' }, t('evaluate.title')),
    h('p', { class: 'muted small' }, t('evaluate.hint')),
    h(
      'div',
      { class: 'row' },
      h(
        'button',
        {
          type: 'button',
          class: 'primary',
          disabled: draft === null,
          onclick: () => (draft === null ? undefined : void status.start({ draft })),
        },
        t('evaluate.draft'),
      ),
      draft === null ? h('span', { class: 'muted small' }, t('evaluate.no-draft')) : null,
    ),
    status.el,
  );
  void status.show().catch(() => undefined);
  return { card, start: status.start };
}
