import { get } from '../api.js';
import { h, replace, when } from '../dom.js';
import { t } from '../i18n.js';

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
  const list = h('ol', { class: 'trajectory', 'aria-label': 'Trajectory steps' });
  const status = h('p', { class: 'muted small', 'aria-live': 'polite' }, 'Loading…');
  const section = h(
    'section',
    { class: 'card', 'data-trajectory': id },
    h('h2', null, 'Trajectory'),
    status,
    list,
  );
  let last = '';
  const tick = async () => {
    if (!section.isConnected && last) return;
    try {
      const t = await get(`/api/tickets/${encodeURIComponent(id)}/trajectory`);
      const text = JSON.stringify(t.steps);
      if (text !== last) {
        last = text;
        redraw(list, t.steps);
      }
      const live = !CLOSED.has(t.state);
      status.textContent = `${t.steps.length} steps${live ? ' · live' : ''}`;
      if (live) setTimeout(tick, POLL_MS);
    } catch (err) {
      status.textContent = `The trajectory could not load: ${err instanceof Error ? err.message : String(err)}`;
    }
  };
  void tick();
  return section;
}

/** Redraws the steps, unfolding again what the reader had unfolded. @param {HTMLElement} list @param {any[]} steps */
function redraw(list, steps) {
  const open = new Set(
    [...list.querySelectorAll('details[open]')].map((d) => d.getAttribute('data-fold') ?? ''),
  );
  replace(
    list,
    steps.map((s, i) => stepItem(s, i)),
  );
  for (const d of list.querySelectorAll('details')) {
    if (open.has(d.getAttribute('data-fold') ?? '')) d.setAttribute('open', '');
  }
}

/** @param {any} s @param {number} i */
function stepItem(s, i) {
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
      ...(BODY[/** @type {keyof typeof BODY} */ (s.kind)]?.(s, i) ?? [s.kind]),
    ),
  );
}

/** The time of day with seconds; the date is in the tooltip. @param {number} at */
const clock = (at) => new Date(at).toLocaleTimeString(undefined, { timeStyle: 'medium' });

const tokens = (/** @type {any} */ u) =>
  u ? `${u.promptTokens} in (${u.cacheHitTokens} cached) · ${u.completionTokens} out` : 'usage not recorded';

/** @type {Record<string, (s: any, i: number) => unknown[]>} */
const BODY = {
  turn: (s, i) => [
    badge('turn', 'Turn'),
    s.turnId ? h('code', null, ` ${s.turnId}`) : null,
    fold(s.input, `in-${i}`),
  ],
  model: (s, i) => [
    badge('model', 'Model'),
    ` ${s.model ?? ''} · ${tokens(s.usage)}${s.ms !== undefined ? ` · ${s.ms} ms` : ''}`,
    s.revision !== undefined ? h('span', { class: 'muted' }, ` · prompts r${s.revision}`) : null,
    s.reasoningChars ? h('span', { class: 'muted' }, ` · ${s.reasoningChars} chars of reasoning`) : null,
    s.calls.length ? h('div', { class: 'small' }, `calls ${s.calls.join(', ')}`) : null,
    s.text ? fold(s.text, `text-${i}`) : null,
  ],
  tool: (s, i) => [
    s.ok ? badge('tool', s.name) : badge('refused', `${s.name} refused`),
    h('code', { class: 'step-args' }, ` ${s.args.head}`),
    s.ms !== undefined ? h('span', { class: 'muted' }, ` · ${s.ms} ms`) : null,
    s.exitCode !== undefined
      ? h('span', { class: `badge ${s.exitCode === 0 ? 'ok' : 'warn'}` }, `exit ${s.exitCode}`)
      : null,
    s.files?.length ? h('div', { class: 'small' }, `files: ${s.files.join(', ')}`) : null,
    s.message ? messageLine(s) : null,
    fold(s.result, `out-${i}`),
  ],
  compaction: (s) => [
    badge('compaction', 'Compaction'),
    ` #${s.compactions}: summarised before entry ${s.summarisedBefore}, outputs elided before ${s.elidedBefore}`,
  ],
  end: (s) => [badge(s.outcome === 'limit' ? 'limit' : 'end', `Turn ${s.outcome}`), ` ${s.detail ?? ''}`],
  pause: (s) => [
    badge(s.via === 'breaker' ? 'limit' : 'pause', s.via === 'breaker' ? 'Breaker trip' : 'Paused'),
    ` by ${s.by} (${s.via})${s.detail ? `: ${s.detail}` : ''}`,
  ],
  resume: (s) => [badge('resume', 'Resumed'), ` by ${s.by} (${s.via})`],
};

/** @param {string} kind @param {string} label */
const badge = (kind, label) => h('span', { class: `badge step-badge step-badge-${kind}` }, label);

/** A message the step sent and where its delivery stands; the link goes to it in the deliveries. @param {any} s */
function messageLine(s) {
  const state = s.sent
    ? `sent ${when(s.sent.at)}${s.sent.id ? ` as ${s.sent.id}` : ''}`
    : s.sent === null
      ? 'pending'
      : '';
  return h(
    'div',
    { class: 'small step-message' },
    'message to ',
    h('code', null, s.message.to),
    state ? ` · ${state} · ` : ' · ',
    h(
      'a',
      {
        href: `#/tickets/${encodeURIComponent(s.session.replace(/^exec-/, ''))}`,
        'data-outbox-key': s.message.outboxKey,
        onclick: toDelivery,
      },
      'delivery',
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
    h('summary', null, `${x.head} (${x.chars} characters)`),
    h('pre', { class: 'text' }, x.full),
  );
}
