import { request, SignedOut } from '../api.js';
import { h, notice, replace, toast } from '../dom.js';
import { t } from '../i18n.js';
import { refusal } from './setup-refusal.js';

/** `m:ss` of the time left. @param {number} ms */
const clock = (ms) => {
  const s = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/** The app's id and secret Feishu handed over, shown once for `.env` (as the GitHub App's). */
function createdView(/** @type {any} */ body) {
  return h(
    'div',
    { id: 'feishu-app-result' },
    notice('ok', t('setup.feishu.created'), ' ', h('strong', null, body.app.appId)),
    h('p', null, t('setup.feishu.env-help')),
    h('textarea', { id: 'feishu-app-env', rows: 6, readonly: true, spellcheck: 'false' }, body.env),
    h(
      'div',
      { class: 'actions' },
      h(
        'button',
        {
          type: 'button',
          onclick: () => navigator.clipboard?.writeText(body.env).then(() => toast(t('setup.app.copied'))),
        },
        t('setup.app.copy'),
      ),
    ),
  );
}

/** How a scan ended, in the panel's words; null while it goes on. @param {any} body */
function ending(body) {
  if (body.status === 'created') return createdView(body);
  if (body.status === 'expired') return notice('problem', t('setup.feishu.expired'));
  if (body.status === 'refused') return notice('problem', t('setup.feishu.refused'));
  if (body.status === 'failed')
    return notice(
      'problem',
      t('setup.feishu.failed', { error: [body.error, body.description].filter(Boolean).join(': ') }),
    );
  return null;
}

/**
 * A scan under way (issue 33 item 6): the QR code, the link for a phone that is this device, the
 * time left, and the polls — as often as the server says, which is as often as Feishu allows —
 * until Feishu answers. A moment without Feishu (503) or without this server is said and retried.
 * @param {HTMLElement} out
 * @param {{ id: string, link: string, qr: string, expiresAt: number, intervalMs: number }} scan
 */
export function showScan(out, scan) {
  const status = h('p', { id: 'feishu-app-status', role: 'status' });
  let note = '';
  const say = () => {
    const left = clock(scan.expiresAt - Date.now());
    status.textContent = [t('setup.feishu.waiting', { left }), note].filter(Boolean).join(' ');
  };
  replace(
    out,
    h(
      'div',
      { class: 'row', id: 'feishu-app-scan-view' },
      h('img', { id: 'feishu-app-qr', src: scan.qr, width: 300, height: 300, alt: t('setup.feishu.qr-alt') }),
      h(
        'div',
        { class: 'field grow' },
        h('p', null, t('setup.feishu.scan-help')),
        status,
        h(
          'p',
          { class: 'small' },
          h(
            'a',
            { href: scan.link, target: '_blank', rel: 'noopener noreferrer' },
            t('setup.feishu.open-link'),
          ),
        ),
      ),
    ),
  );
  say();
  const ticker = setInterval(
    () => (out.isConnected && status.isConnected ? say() : clearInterval(ticker)),
    1000,
  );
  const finish = (/** @type {Node} */ view) => {
    clearInterval(ticker);
    replace(out, view);
  };
  const poll = async () => {
    if (!status.isConnected) return clearInterval(ticker);
    let res;
    try {
      res = await request('POST', `/panel/api/feishu-app/registrations/${encodeURIComponent(scan.id)}/poll`);
    } catch (err) {
      if (err instanceof SignedOut) return clearInterval(ticker);
      note = t('setup.feishu.server-retry');
      return void setTimeout(poll, scan.intervalMs);
    }
    if (res.status === 503) {
      note = t('setup.feishu.unreachable-retry');
      return void setTimeout(poll, res.body?.retryAfterMs ?? scan.intervalMs);
    }
    if (!res.ok) return finish(notice('problem', t('setup.feishu.not-created', { error: refusal(res) })));
    note = '';
    const end = ending(res.body);
    if (end) return finish(end);
    say();
    setTimeout(poll, res.body.retryAfterMs);
  };
  setTimeout(poll, scan.intervalMs);
}
