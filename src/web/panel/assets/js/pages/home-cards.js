import { h, when } from '../dom.js';
import { t } from '../i18n.js';

/**
 * The cards of the panel's Home (issue 33 item 1), each drawn from its part of `GET /api/home`
 * and each with a link to where one acts on it.
 */

/** A card: heading, body, and the link to where one acts on it. */
function card(
  /** @type {string} */ name,
  /** @type {unknown[]} */ body,
  /** @type {HTMLElement | null} */ go,
) {
  return h(
    'section',
    { class: 'card home-card', 'data-home': name, 'aria-labelledby': `home-${name}` },
    h('h2', { id: `home-${name}` }, t(`home.${name}`)),
    body,
    go ? h('p', { class: 'home-go' }, go) : null,
  );
}

const link = (/** @type {string} */ href, /** @type {string} */ text) => h('a', { href }, text);
const badge = (/** @type {string} */ kind, /** @type {string} */ text) =>
  h('span', { class: `badge ${kind}` }, text);

/** Reachable, unreachable, or nothing to say (off). @param {boolean | null} r */
function reach(r) {
  if (r === null) return h('span', { class: 'muted' }, '—');
  return r ? badge('ok', t('home.reachable')) : badge('warn', t('home.unreachable'));
}

/** @param {any} c */
function channelRow(c) {
  return h(
    'tr',
    { 'data-channel': c.name },
    h('th', { scope: 'row' }, t(`home.channel.${c.name}`)),
    h('td', null, c.on ? badge('ok', t('home.on')) : badge('quiet', t('home.off'))),
    h('td', null, reach(c.reachable)),
    h('td', { class: 'num' }, String(c.eventsLastHour)),
    h('td', null, c.lastEventAt ? when(c.lastEventAt) : t('home.never')),
  );
}

/** @param {any[]} channels */
export function channelsCard(channels) {
  const head = ['channel', 'state', 'reach', 'events', 'last'].map((c) =>
    h('th', { scope: 'col' }, t(`home.col.${c}`)),
  );
  return card(
    'channels',
    [
      h(
        'table',
        { class: 'table' },
        h('thead', null, h('tr', null, head)),
        h('tbody', null, channels.map(channelRow)),
      ),
    ],
    link('#/setup', t('home.go.setup')),
  );
}

/** @param {any} model */
export function modelCard(model) {
  const last = model.last;
  const said = !last
    ? h('p', { class: 'muted' }, t('home.model.none'))
    : h(
        'p',
        { 'data-model': last.ok ? 'ok' : 'failed' },
        last.ok ? badge('ok', t('home.model.ok')) : badge('warn', t('home.model.failed')),
        ' ',
        t('home.model.last', { ms: last.ms, at: when(last.at), session: last.session }),
        last.reason ? h('span', { class: 'problem home-reason' }, last.reason) : null,
      );
  const models = model.main === model.executor ? model.main : `${model.main} / ${model.executor}`;
  return card(
    'model',
    [
      h(
        'p',
        null,
        h('span', { class: 'mono' }, models),
        ' ',
        h('span', { class: 'muted small' }, model.provider),
      ),
      model.configured ? said : h('p', { class: 'problem' }, t('home.model.off')),
    ],
    link('#/try', t('home.go.try')),
  );
}

/** @param {any} f */
function findingItem(f) {
  return h(
    'li',
    { 'data-finding': f.check, class: `finding ${f.status}` },
    h('strong', null, f.check),
    ' ',
    f.detail,
    f.fix
      ? h('div', { class: 'home-fix' }, h('span', { class: 'muted' }, t('home.doctor.fix')), ' ', f.fix)
      : null,
  );
}

/** @param {any} doctor */
export function doctorCard(doctor) {
  const problems = doctor.findings.filter((/** @type {any} */ f) => f.status === 'problem');
  const rest = doctor.findings.filter((/** @type {any} */ f) => f.status !== 'problem');
  return card(
    'doctor',
    [
      problems.length
        ? h('ul', { class: 'home-findings' }, problems.map(findingItem))
        : h('p', null, badge('ok', t('home.doctor.none'))),
      rest.length
        ? h(
            'details',
            null,
            h('summary', null, t('home.doctor.fine', { n: rest.length })),
            h('ul', { class: 'home-findings' }, rest.map(findingItem)),
          )
        : null,
      h('p', { class: 'muted small' }, t('home.doctor.checked', { at: when(doctor.at) })),
    ],
    link('#/setup', t('home.go.setup')),
  );
}

const STATES = ['open', 'working', 'waiting', 'done', 'cancelled'];

/** @param {any} tickets */
export function ticketsCard(tickets) {
  const states = [...STATES, ...Object.keys(tickets.byState).filter((s) => !STATES.includes(s))];
  return card(
    'tickets',
    [
      h(
        'ul',
        { class: 'home-counts' },
        states.map((s) =>
          h(
            'li',
            { 'data-state': s },
            h('span', { class: 'home-count' }, String(tickets.byState[s] ?? 0)),
            h('span', { class: `badge state-${s}` }, t(`state.${s}`)),
          ),
        ),
      ),
      tickets.counted >= tickets.limit
        ? h('p', { class: 'muted small' }, t('home.tickets.newest', { n: tickets.limit }))
        : null,
    ],
    link('#/tickets', t('home.go.tickets')),
  );
}

/** @param {any} d */
export function deliveriesCard(d) {
  const rows = d.tickets.map((/** @type {any} */ x) =>
    h(
      'li',
      { 'data-ticket': x.ticketId },
      link(`#/tickets/${encodeURIComponent(x.ticketId)}`, x.ticketId),
      ' ',
      x.failed ? badge('warn', t('home.deliveries.failed', { n: x.failed })) : null,
      x.retrying ? badge('quiet', t('home.deliveries.retrying', { n: x.retrying })) : null,
    ),
  );
  return card(
    'deliveries',
    [
      h(
        'p',
        { class: d.failed ? 'problem' : '' },
        t('home.deliveries.totals', { failed: d.failed, retrying: d.retrying }),
      ),
      rows.length ? h('ul', { class: 'home-list' }, rows) : null,
    ],
    link('#/queues', t('home.go.queues')),
  );
}

const QUEUE_COLS = ['waiting', 'active', 'delayed', 'failed'];

/** @param {any[]} queues */
export function queuesCard(queues) {
  const head = h(
    'tr',
    null,
    h('th', { scope: 'col' }, t('queues.queue')),
    QUEUE_COLS.map((s) => h('th', { scope: 'col', class: 'num' }, t(`queues.state.${s}`))),
  );
  const row = (/** @type {any} */ q) =>
    h(
      'tr',
      { 'data-queue': q.name },
      h('th', { scope: 'row' }, q.name),
      QUEUE_COLS.map((s) => h('td', { class: `num ${s === 'failed' && q[s] ? 'bad' : ''}` }, String(q[s]))),
    );
  return card(
    'queues',
    [h('table', { class: 'table' }, h('thead', null, head), h('tbody', null, queues.map(row)))],
    link('#/queues', t('home.go.queues')),
  );
}
