import { request } from '../api.js';
import { h, toast, when } from '../dom.js';
import { t, tOr } from '../i18n.js';

/** @param {string} state */
export const stateBadge = (state) =>
  h('span', { class: `badge state-${state}` }, tOr(`state.${state}`, state));

/** "Paused by ann, 3 Jun 10:02 (button)". @param {{ by: string, at: number, via: string }} p */
export const pauseLine = (p) =>
  h('span', { class: 'paused' }, t('pause.line', { by: p.by, at: when(p.at), via: t(`pause.via.${p.via}`) }));

/**
 * Pause or Resume, the same as a person's message (R-D2).
 * @param {{ id: string, pause: unknown }} ticket
 * @param {() => void} after
 */
export function pauseButton(ticket, after) {
  const paused = Boolean(ticket.pause);
  const act = paused ? 'resume' : 'pause';
  return h(
    'button',
    {
      type: 'button',
      class: paused ? 'primary' : '',
      'data-action': act,
      onclick: async () => {
        const res = await request('POST', `/api/tickets/${encodeURIComponent(ticket.id)}/${act}`);
        toast(
          res.ok
            ? t(paused ? 'ticket.resumed' : 'ticket.paused', { ticket: ticket.id })
            : t(paused ? 'ticket.resume-failed' : 'ticket.pause-failed', {
                error: res.body?.error ?? res.status,
              }),
        );
        after();
      },
    },
    t(paused ? 'ticket.resume' : 'ticket.pause', { ticket: ticket.id }),
  );
}

/**
 * An object of unknown shape as a small definition list (text only).
 * @param {unknown} value
 * @returns {Node}
 */
export function facts(value, key = '') {
  if (value === null || value === undefined) return h('span', { class: 'muted' }, '—');
  // Times are stored as epoch milliseconds under names ending in "at"/"At".
  if (typeof value === 'number' && /(^at|At)$/.test(key) && value > 1e12)
    return document.createTextNode(when(value));
  if (typeof value !== 'object') return document.createTextNode(String(value));
  if (Array.isArray(value)) {
    if (!value.length) return h('span', { class: 'muted' }, t('none'));
    if (value.every((v) => typeof v !== 'object' || v === null))
      return document.createTextNode(value.join(', '));
    return h(
      'ul',
      { class: 'plain' },
      value.map((v) => h('li', null, facts(v))),
    );
  }
  return h(
    'dl',
    { class: 'facts' },
    Object.entries(value).map(([k, v]) => [h('dt', null, k), h('dd', null, facts(v, k))]),
  );
}

/**
 * A person by name where known: a GitHub login, a Feishu contact's cached name. A Feishu open_id
 * with no name is shortened (`ou_1a2b…9z`) with the full id in its title.
 * @param {{ id?: string, name?: string } | null | undefined} p
 */
export function person(p) {
  const id = p?.id ?? '';
  const name = p?.name && p.name !== id ? p.name : '';
  if (name) return h('span', { class: 'person', title: id || null }, name);
  if (/^o[un]_[A-Za-z0-9]{12,}$/.test(id))
    return h('span', { class: 'person id', title: id }, `${id.slice(0, 7)}…${id.slice(-4)}`);
  return h('span', { class: 'person' }, id || '?');
}
