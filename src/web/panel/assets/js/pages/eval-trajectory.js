import { request } from '../api.js';
import { h, notice, replace } from '../dom.js';
import { t } from '../i18n.js';
import { evalHref, num, usd, yesNo } from './eval-bits.js';
import { trajectoryList } from './trajectory-view.js';

/**
 * A task run's trajectory as the runner kept it (issue 29), drawn by the ticket page's own
 * trajectory view: every step of the ticket's sessions, from the file its record names. A file
 * that fails its schema shows the reason.
 * @param {HTMLElement} root @param {string} run @param {string} task @param {number} n
 * @param {string} [arm] in an A/B run, `published` or `candidate`
 */
export async function evalTrajectoryView(root, run, task, n, arm) {
  const path = `/api/eval/runs/${encodeURIComponent(run)}/trajectories/${encodeURIComponent(task)}/${n}${arm ? `?arm=${encodeURIComponent(arm)}` : ''}`;
  const res = await request('GET', path);
  const back = h('p', { class: 'small' }, h('a', { href: evalHref(run) }, t('eval.back-run')));
  const title = h('h1', null, `${task} #${n}`, arm ? ` · ${t(`eval.ab.arm.${arm}`)}` : '');
  if (!res.ok)
    return replace(
      root,
      back,
      title,
      notice(
        'problem',
        t(res.status === 422 ? 'eval.trajectory.unreadable' : 'eval.trajectory.missing'),
        res.status === 422 ? h('div', { class: 'eval-problem' }, res.body?.error ?? '') : null,
      ),
    );
  const { record: r, steps } = res.body;
  replace(
    root,
    h('div', { class: 'page-head' }, h('div', null, back, title, outcome(r))),
    h(
      'section',
      { class: 'card', 'data-eval-trajectory': `${task}-${n}` },
      h('h2', null, t('traj.title')),
      h('p', { class: 'muted small' }, t('traj.count', { n: steps.length })),
      trajectoryList(steps),
    ),
  );
}

/** @param {any} r */
function outcome(r) {
  return h(
    'p',
    { class: 'muted small meta' },
    t('eval.col.resolved'),
    ' ',
    yesNo(r.resolved),
    ` · ${t('eval.col.honest')} `,
    yesNo(r.honest),
    ` · ${t('eval.col.pr')} ${t(`eval.pr.${r.pr}`)} · ${t('eval.requests', { n: num(r.modelRequests) })} · ${usd(r.costUsd)} · ${r.wallSeconds} s`,
    r.ticket ? ` · ${r.ticket}` : '',
  );
}
