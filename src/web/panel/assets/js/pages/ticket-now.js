import { h, replace } from '../dom.js';
import { t } from '../i18n.js';

const TICK_MS = 1000;

/**
 * Issue 33: what the executor is doing now — the tool call under way with a few words of it (the
 * command, the path) and how long it has run, or how long the model has had the call's result —
 * and the budget used, which grows after every model request. The page's one poll (issue 49,
 * `ticket-live.js`) hands it each fresh status (`nowUpdate`); between two polls it counts the
 * seconds itself. Everything is text.
 * @param {string} id
 * @param {any} status the ticket's status as `GET /api/tickets/:id` answers it
 */
export function ticketNowSection(id, status) {
  const body = h('div', { 'aria-live': 'polite' });
  const section = h('div', { class: 'now', 'data-now': id }, body);
  let current = status;
  let readAt = Date.now();
  const draw = () => replace(body, nowLine(current, Date.now() - readAt), budgetLine(current));
  draw();
  const ticker = setInterval(() => {
    if (!section.isConnected) clearInterval(ticker);
    else draw();
  }, TICK_MS);
  section.addEventListener('status', (e) => {
    current = /** @type {CustomEvent} */ (e).detail;
    readAt = Date.now();
    draw();
  });
  return section;
}

/** Hands the section a status read now. @param {Element | null} section @param {any} status */
export const nowUpdate = (section, status) =>
  section?.dispatchEvent(new CustomEvent('status', { detail: status }));

/** `42 s`, `3 min 5 s`. @param {number} ms */
function seconds(ms) {
  const s = Math.floor(Math.max(0, ms) / 1000);
  return s < 60
    ? t('ticket.now-seconds', { s })
    : t('ticket.now-minutes', { m: Math.floor(s / 60), s: s % 60 });
}

/** @param {any} status @param {number} since ms since the status was read */
function nowLine(status, since) {
  const call = status?.call;
  if (!call || (status.state !== 'working' && status.state !== 'blocked'))
    return h('p', { class: 'muted', 'data-now-step': '' }, t('ticket.now-idle'));
  const detail = call.detail ? [' ', h('code', null, call.detail)] : [];
  if (call.endedAt) {
    // The call returned: the model has its result, for `idleMs` when read.
    return h(
      'p',
      { 'data-now-step': 'model' },
      t('ticket.now-model', { tool: call.tool }),
      ...detail,
      ' · ',
      t('ticket.now-ran', { elapsed: seconds(call.ms) }),
      ' · ',
      h(
        'span',
        { 'data-elapsed': '' },
        t('ticket.now-waiting', { elapsed: seconds((call.idleMs ?? 0) + since) }),
      ),
    );
  }
  return h(
    'p',
    { 'data-now-step': 'tool' },
    t('ticket.now-running', { tool: call.tool }),
    ...detail,
    ' · ',
    h('span', { 'data-elapsed': '' }, seconds(call.ms + since)),
  );
}

/** @param {any} status */
function budgetLine(status) {
  const u = status?.usage ?? { modelRequests: 0, tokens: 0 };
  return h(
    'p',
    { class: 'meta', 'data-budget': '' },
    t('ticket.now-budget', { requests: u.modelRequests, tokens: u.tokens.toLocaleString() }),
  );
}
