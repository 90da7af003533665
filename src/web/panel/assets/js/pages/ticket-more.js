import { h } from '../dom.js';
import { t } from '../i18n.js';
import { markdown } from '../markdown.js';
import { deliveriesBody, details } from './deliveries-block.js';
import { facts } from './ticket-bits.js';
import { trajectorySection } from './trajectory-view.js';

/**
 * The ticket page below its timeline and changes (issue 49): the plan, deliveries that need a
 * hand, screenshots, and — folded, for operators — the live status card's text, sessions with
 * their usage, the threads and conversation it follows, and every step of its trajectory.
 * @param {any} tk the ticket as `GET /api/tickets/:id` answers it
 * @param {() => void} refresh polls at once (after a retry)
 */
export function ticketMore(tk, refresh) {
  return [
    // Issue 48: the executor's plan as it last set it.
    tk.plan?.steps?.length ? block(t('ticket.plan'), planList(tk.plan.steps)) : null,
    block(t('ticket.outbox'), deliveriesBody(tk, refresh)),
    (tk.screenshots ?? []).some((/** @type {any} */ s) => s.href) ? screenshotsBlock(tk.screenshots) : null,
  ];
}

/**
 * Internals behind one disclosure: ids and counts an operator reads when something is off,
 * redrawn by `update` when they changed. The trajectory inside is made on the first unfolding
 * and then polls on its own.
 * @param {any} tk
 */
export function ticketInternals(tk) {
  const body = h('div', { class: 'internals-body' });
  const traj = h('div');
  const box = h(
    'details',
    { class: 'card ticket-internals', 'data-internals': '' },
    h('summary', null, h('h2', { class: 'inline' }, t('ticket.internals'))),
    body,
    traj,
  );
  box.addEventListener('toggle', () => {
    if (box.open && !traj.firstChild) traj.append(trajectorySection(tk.id));
  });
  let seen = '';
  /** @param {any} next */
  const update = (next) => {
    const mark = JSON.stringify([next.statusText, next.sessions, next.usage, next.threads, next.prs]);
    if (mark === seen) return;
    seen = mark;
    const open = new Set([...body.querySelectorAll('details')].map((d, i) => (d.open ? i : -1)));
    body.replaceChildren();
    for (const part of internalsOf(next)) if (part) body.append(part);
    [...body.querySelectorAll('details')].forEach((d, i) => {
      if (open.has(i)) d.setAttribute('open', '');
    });
  };
  update(tk);
  return { box, update };
}

/** @param {any} tk */
function internalsOf(tk) {
  return [
    tk.statusText
      ? part(t('ticket.live-status'), h('div', { class: 'status-text' }, markdown(tk.statusText)))
      : null,
    part(
      t('ticket.about'),
      h(
        'dl',
        { class: 'facts' },
        h('dt', null, t('ticket.about.conversation')),
        h('dd', { class: 'mono' }, tk.conversation),
        h('dt', null, t('ticket.about.source')),
        h('dd', { class: 'mono' }, tk.source),
        h('dt', null, t('ticket.threads')),
        h('dd', { class: 'mono' }, tk.threads.length ? tk.threads.join(', ') : '—'),
        h('dt', null, t('ticket.prs')),
        h('dd', { class: 'mono' }, tk.prs.length ? tk.prs.join(', ') : '—'),
      ),
    ),
    sessionsBlock(tk),
  ];
}

/** @param {any} tk */
function sessionsBlock(tk) {
  return part(
    t('ticket.sessions'),
    tk.usage
      ? h('p', { class: 'meta', 'data-usage': 'ticket' }, t('ticket.usage', { usage: usageLine(tk.usage) }))
      : null,
    tk.sessions.length
      ? h(
          'div',
          { class: 'table-wrap' },
          h(
            'table',
            { class: 'table compact' },
            h(
              'thead',
              null,
              h(
                'tr',
                null,
                ['session', 'revisions', 'transcript', 'usage'].map((x) =>
                  h('th', { scope: 'col' }, t(`ticket.col.${x}`)),
                ),
              ),
            ),
            h(
              'tbody',
              null,
              tk.sessions.map((/** @type {any} */ s) =>
                h(
                  'tr',
                  null,
                  h(
                    'td',
                    null,
                    h('code', null, s.id),
                    s.shared ? h('div', { class: 'meta' }, t('ticket.shared-session')) : null,
                  ),
                  h('td', null, facts(s.revisions)),
                  h('td', null, transcriptLine(s)),
                  h('td', null, usageLine(s.usage)),
                ),
              ),
            ),
          ),
        )
      : none(),
    tk.sessions.length
      ? details(
          tk.sessions.map((/** @type {any} */ s) =>
            h(
              'div',
              { class: 'last-turn' },
              h('h4', null, `${t('ticket.col.last-turn')} · ${s.id}`),
              facts(s.lastTurn),
            ),
          ),
        )
      : null,
  );
}

/**
 * Issue 15: the executor's screenshots, each with the commit it shows; the picture is served by
 * the API to the signed-in panel (its session cookie goes with the image request).
 * @param {any[]} shots
 */
function screenshotsBlock(shots) {
  const taken = shots.filter((s) => s.href);
  return block(
    t('ticket.screenshots'),
    taken.length
      ? h(
          'ul',
          { class: 'plain' },
          taken.map((s) =>
            h(
              'li',
              null,
              h('strong', null, s.when === 'before' ? t('ticket.shot-before') : t('ticket.shot-after')),
              ` ${s.url ?? ''} @ ${(s.commit ?? '').slice(0, 12)}${s.dirty ? ` ${t('ticket.shot-dirty')}` : ''} `,
              h(
                'a',
                { href: s.href, target: '_blank', rel: 'noopener' },
                h('img', { src: s.href, alt: s.when, width: '320' }),
              ),
            ),
          ),
        )
      : none(),
  );
}

/** @param {string} title @param {...unknown} children */
const block = (title, ...children) => h('section', { class: 'card' }, h('h2', null, title), ...children);
/** A part inside the internals' disclosure. @param {string} title @param {...unknown} children */
const part = (title, ...children) => h('section', { class: 'internal' }, h('h3', null, title), ...children);
const none = () => h('p', { class: 'muted' }, t('ticket.none'));
const PLAN_MARK = { completed: '✓', in_progress: '▶', pending: '○' };

/** The plan's steps, each marked by its status. @param {{ step: string, status: string }[]} steps */
const planList = (steps) =>
  h(
    'ul',
    { class: 'plan' },
    steps.map((s) =>
      h(
        'li',
        { 'data-status': s.status },
        `${PLAN_MARK[/** @type {keyof typeof PLAN_MARK} */ (s.status)] ?? '○'} ${s.step}`,
      ),
    ),
  );

/**
 * The transcript's length and, once compacted (R-H2), how often and from which entry the model
 * still reads it whole (earlier entries are a "progress so far" summary).
 * @param {{ transcriptLength: number, context?: { compactions: number, summarisedBefore: number } | null }} s
 */
function transcriptLine(s) {
  const base = t('ticket.entries', { n: s.transcriptLength });
  if (!s.context) return base;
  const from = s.context.summarisedBefore
    ? t('ticket.summarised-before', { n: s.context.summarisedBefore })
    : '';
  return `${base} · ${t('ticket.compactions', { n: s.context.compactions })}${from}`;
}

/**
 * Model usage in one line (issue 12: prompt-cache economy): requests, prompt tokens and the share
 * the provider served from its cache.
 * @param {{ requests: number, promptTokens: number, completionTokens: number, cacheHitTokens: number } | undefined} u
 */
function usageLine(u) {
  if (!u?.requests) return t('ticket.no-requests');
  const share = u.promptTokens ? Math.round((100 * u.cacheHitTokens) / u.promptTokens) : 0;
  return t('ticket.usage-line', {
    requests: u.requests,
    prompt: u.promptTokens,
    cached: u.cacheHitTokens,
    share,
    completion: u.completionTokens,
  });
}
