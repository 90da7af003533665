import { request } from '../api.js';
import { h, toast, when } from '../dom.js';
import { t } from '../i18n.js';

/**
 * A ticket's outgoing messages for people: those that failed (for good, or waiting to be tried
 * again) with the channel's error and a Retry button; the sent ones as a count and time. The
 * effect keys and per-delivery records are internals, behind a "details" toggle.
 * @param {{ id: string, outbox: any[], troubled?: any[] }} tk
 * @param {() => void} after re-draws the page once a retry was asked for
 */
export function deliveriesBody(tk, after) {
  const troubled = tk.troubled ?? [];
  const sent = tk.outbox.filter((o) => o.sent);
  const lastAt = Math.max(0, ...sent.map((o) => o.sent.at ?? 0));
  return [
    troubled.length
      ? h(
          'ul',
          { class: 'plain troubled' },
          troubled.map((d) =>
            h(
              'li',
              { class: 'delivery-trouble', 'data-delivery': d.key },
              h(
                'span',
                { class: `badge ${d.state === 'failed' ? 'problem' : 'warn'}` },
                t(`deliveries.${d.state}`),
              ),
              ' ',
              h('strong', null, t('deliveries.what', { op: d.op, attempts: d.attempts })),
              h('span', { class: 'muted small' }, ` ${when(d.at)}`),
              h('div', { class: 'delivery-error' }, d.error || t('deliveries.no-error')),
              h(
                'button',
                {
                  type: 'button',
                  'data-action': 'retry',
                  onclick: async (/** @type {Event} */ e) => {
                    /** @type {HTMLButtonElement} */ (e.currentTarget).disabled = true;
                    const res = await request(
                      'POST',
                      `/api/tickets/${encodeURIComponent(tk.id)}/deliveries/retry`,
                      { key: d.key },
                    );
                    toast(
                      res.ok
                        ? t('deliveries.retried')
                        : t('deliveries.retry-failed', { error: res.body?.error ?? res.status }),
                    );
                    after();
                  },
                },
                t('deliveries.retry'),
              ),
            ),
          ),
        )
      : null,
    h(
      'p',
      { class: 'muted' },
      sent.length
        ? t('deliveries.sent', { n: sent.length, at: when(lastAt) })
        : troubled.length
          ? null
          : t('ticket.none'),
    ),
    tk.outbox.length
      ? details(
          h(
            'ol',
            { class: 'plain mono small' },
            tk.outbox.map((o) =>
              h(
                'li',
                { 'data-outbox': o.key },
                h('code', null, o.key),
                ' ',
                o.sent
                  ? h('span', { class: 'badge ok' }, t('ticket.sent'))
                  : h('span', { class: 'badge quiet' }, t('ticket.pending')),
                o.sent ? ` ${when(o.sent.at)}${o.sent.id ? ` · ${o.sent.id}` : ''}` : null,
              ),
            ),
          ),
        )
      : null,
  ];
}

/** Internals a person rarely needs, folded. @param {...unknown} children */
export const details = (...children) =>
  h('details', { class: 'internals' }, h('summary', null, t('ticket.details')), ...children);
