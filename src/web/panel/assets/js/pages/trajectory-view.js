import { get } from '../api.js';
import { h, replace, when } from '../dom.js';
import { t } from '../i18n.js';
import { diffLines, diffView } from '../line-diff.js';

const POLL_MS = 2000;
const CLOSED = new Set(['done', 'cancelled']);

/**
 * The ticket's trajectory (issue 17): every step of every turn, in order — model requests with
 * tokens, cache hits and latency; tool calls with arguments and results summarised (exit codes,
 * files written, messages sent), refusals marked; compactions, turn ends (budgets among them),
 * pauses and resumes (breaker trips among them). Long texts fold into `<details>`. While the
 * ticket is open the section polls and redraws when something changed, keeping what was unfolded.
 * Everything is text: data never becomes markup.
 * @param {string} id
 */
export function trajectorySection(id) {
  const list = h('ol', { class: 'trajectory', 'aria-label': t('traj.steps-label') });
  const status = h('p', { class: 'muted small', 'aria-live': 'polite' }, t('traj.loading'));
  const section = h(
    'section',
    { class: 'card', 'data-trajectory': id },
    h('h2', null, t('traj.title')),
    status,
    list,
  );
  let last = '';
  const tick = async () => {
    if (!section.isConnected && last) return;
    try {
      const traj = await get(`/api/tickets/${encodeURIComponent(id)}/trajectory`);
      const text = JSON.stringify(traj.steps);
      if (text !== last) {
        last = text;
        redraw(list, traj.steps);
      }
      const live = !CLOSED.has(traj.state);
      status.textContent = live
        ? t('traj.live', { n: traj.steps.length })
        : t('traj.count', { n: traj.steps.length });
      if (live) setTimeout(tick, POLL_MS);
    } catch (err) {
      status.textContent = t('traj.failed', { error: err instanceof Error ? err.message : String(err) });
    }
  };
  void tick();
  return section;
}

/**
 * A trajectory kept with the eval results (issue 29), drawn once: its product is gone, so its
 * messages link to no delivery. @param {any[]} steps
 */
export function trajectoryList(steps) {
  const list = h('ol', { class: 'trajectory', 'aria-label': t('traj.steps-label') });
  redraw(list, steps, false);
  return list;
}

/**
 * Redraws the steps, unfolding again what the reader had unfolded.
 * @param {HTMLElement} list @param {any[]} steps @param {boolean} [deliveries] link messages to their delivery
 */
function redraw(list, steps, deliveries = true) {
  const open = new Set(
    [...list.querySelectorAll('details[open]')].map((d) => d.getAttribute('data-fold') ?? ''),
  );
  replace(
    list,
    steps.map((s, i) => stepItem(s, i, deliveries)),
  );
  for (const d of list.querySelectorAll('details')) {
    if (open.has(d.getAttribute('data-fold') ?? '')) d.setAttribute('open', '');
  }
}

/** @param {any} s @param {number} i @param {boolean} deliveries */
function stepItem(s, i, deliveries) {
  const refused = s.kind === 'tool' && !s.ok;
  return h(
    'li',
    {
      class: `step step-${s.kind}${refused ? ' refused' : ''}`,
      'data-kind': s.kind,
      'data-tool': s.kind === 'tool' ? s.name : null,
      'data-refused': refused ? 'true' : null,
      'data-session': s.session ?? null,
    },
    h('span', { class: 'step-when muted small', title: s.at ? when(s.at) : null }, s.at ? clock(s.at) : ''),
    h(
      'div',
      { class: 'step-body' },
      // Issue 17: the main session's turns that opened the ticket or acted on it, among the executor's.
      s.session?.startsWith('main-')
        ? h('span', { class: 'badge step-session' }, t('trajectory.main-session'))
        : null,
      ...(BODY[/** @type {keyof typeof BODY} */ (s.kind)]?.(s, i, deliveries) ?? [s.kind]),
    ),
  );
}

/** The time of day with seconds; the date is in the tooltip. @param {number} at */
const clock = (at) => new Date(at).toLocaleTimeString(undefined, { timeStyle: 'medium' });

const tokens = (/** @type {any} */ u) =>
  u
    ? t('traj.usage', { prompt: u.promptTokens, cached: u.cacheHitTokens, completion: u.completionTokens })
    : t('traj.no-usage');

/** @type {Record<string, (s: any, i: number, deliveries: boolean) => unknown[]>} */
const BODY = {
  turn: (s, i) => [
    badge('turn', t('traj.turn')),
    s.turnId ? h('code', null, ` ${s.turnId}`) : null,
    fold(s.input, `in-${i}`),
  ],
  model: (s, i) => [
    badge('model', t('traj.model')),
    ` ${s.model ?? ''} · ${tokens(s.usage)}${s.ms !== undefined ? ` · ${s.ms} ms` : ''}`,
    s.revision !== undefined
      ? h('span', { class: 'muted' }, ` · ${t('traj.revision', { revision: s.revision })}`)
      : null,
    s.reasoningChars
      ? h('span', { class: 'muted' }, ` · ${t('traj.reasoning', { n: s.reasoningChars })}`)
      : null,
    s.calls.length ? h('div', { class: 'small' }, t('traj.calls', { names: s.calls.join(', ') })) : null,
    s.text ? fold(s.text, `text-${i}`) : null,
  ],
  tool: (s, i, deliveries) => [
    s.ok ? badge('tool', s.name) : badge('refused', t('traj.refused', { name: s.name })),
    h('code', { class: 'step-args' }, ` ${s.args.head}`),
    s.ms !== undefined ? h('span', { class: 'muted' }, ` · ${s.ms} ms`) : null,
    s.exitCode !== undefined
      ? h(
          'span',
          { class: `badge ${s.exitCode === 0 ? 'ok' : 'warn'}` },
          t('traj.exit', { code: s.exitCode }),
        )
      : null,
    s.files?.length ? h('div', { class: 'small' }, t('traj.files', { files: s.files.join(', ') })) : null,
    // Issue 49 item 2: an edit as the passage it replaced, old → new, not the whole file.
    s.edit
      ? diffView(diffLines(s.edit.old, s.edit.new), {
          label: t('tl.edit-label', { path: s.args.head }),
          context: 2,
        })
      : null,
    s.message ? messageLine(s, deliveries) : null,
    fold(s.result, `out-${i}`),
  ],
  compaction: (s) => [
    badge('compaction', t('traj.compaction')),
    ` ${t('traj.compaction-detail', { n: s.compactions, summarised: s.summarisedBefore, elided: s.elidedBefore })}`,
  ],
  note: (s, i) => [badge('note', t('traj.note', { note: s.note })), fold(s.text, `note-${i}`)],
  end: (s) => [
    badge(s.outcome === 'limit' ? 'limit' : 'end', t('traj.end', { outcome: s.outcome })),
    ` ${s.detail ?? ''}`,
  ],
  pause: (s) => [
    badge(
      s.via === 'breaker' ? 'limit' : 'pause',
      s.via === 'breaker' ? t('traj.breaker') : t('traj.paused'),
    ),
    ` ${t('traj.by', { by: s.by, via: s.via })}${s.detail ? `: ${s.detail}` : ''}`,
  ],
  resume: (s) => [badge('resume', t('traj.resumed')), ` ${t('traj.by', { by: s.by, via: s.via })}`],
};

/** @param {string} kind @param {string} label */
const badge = (kind, label) => h('span', { class: `badge step-badge step-badge-${kind}` }, label);

/** A message the step sent and where its delivery stands; the link goes to it in the deliveries. @param {any} s @param {boolean} link */
function messageLine(s, link) {
  const state = s.sent
    ? s.sent.id
      ? t('traj.sent-as', { at: when(s.sent.at), id: s.sent.id })
      : t('traj.sent', { at: when(s.sent.at) })
    : s.sent === null
      ? t('traj.pending')
      : '';
  return h(
    'div',
    { class: 'small step-message' },
    `${t('traj.message-to')} `,
    h('code', null, s.message.to),
    state ? ` · ${state}` : '',
    link ? ' · ' : null,
    link &&
      h(
        'a',
        {
          href: `#/tickets/${encodeURIComponent(s.session.replace(/^exec-/, ''))}`,
          'data-outbox-key': s.message.outboxKey,
          onclick: toDelivery,
        },
        t('traj.delivery'),
      ),
  );
}

/** Scrolls to the delivery of the message on the same page, instead of routing. @param {Event} e */
function toDelivery(e) {
  e.preventDefault();
  const key = /** @type {HTMLElement} */ (e.currentTarget).getAttribute('data-outbox-key');
  const target = [...document.querySelectorAll('[data-outbox]')].find(
    (el) => el.getAttribute('data-outbox') === key,
  );
  target?.scrollIntoView({ block: 'center' });
  target?.classList.add('flash');
}

/** A text shown by its first line; the whole behind a fold when longer. @param {any} x @param {string} key */
function fold(x, key) {
  if (!x) return null;
  if (!x.full) return h('div', { class: 'step-text' }, x.head);
  return h(
    'details',
    { class: 'step-fold', 'data-fold': key },
    h('summary', null, t('traj.chars', { head: x.head, n: x.chars })),
    h('pre', { class: 'text' }, x.full),
  );
}
