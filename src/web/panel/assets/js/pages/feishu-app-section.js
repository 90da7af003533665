import { get, request } from '../api.js';
import { h, notice, replace, when } from '../dom.js';
import { t, tOr } from '../i18n.js';
import { showScan } from './feishu-scan-view.js';
import { refusal } from './setup-refusal.js';

/** A scope's catalog key: `im:message.group_msg` → `setup.feishu.why.im-message-group-msg`. */
const whyKey = (/** @type {string} */ scope) => `setup.feishu.why.${scope.replace(/[^a-z0-9]+/gi, '-')}`;

/** What the app gets: each scope and why, then the event and the callback. */
function needsTable(/** @type {any} */ needs) {
  const row = (/** @type {string} */ kind, /** @type {string} */ name, /** @type {string} */ why) =>
    h(
      'tr',
      null,
      h('td', null, kind),
      h('td', null, h('code', null, name)),
      h('td', { class: 'muted small' }, why),
    );
  return h(
    'table',
    { class: 'table', id: 'feishu-app-needs' },
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        h('th', null, t('setup.feishu.col.kind')),
        h('th', null, t('setup.feishu.col.name')),
        h('th', null, t('setup.feishu.col.why')),
      ),
    ),
    h(
      'tbody',
      null,
      needs.scopes.map((/** @type {any} */ s) =>
        row(t('setup.feishu.kind.scope'), s.scope, tOr(whyKey(s.scope), s.why)),
      ),
      needs.events.map((/** @type {string} */ e) =>
        row(t('setup.feishu.kind.event'), e, t('setup.feishu.why.event')),
      ),
      needs.callbacks.map((/** @type {string} */ c) =>
        row(t('setup.feishu.kind.callback'), c, t('setup.feishu.why.callback')),
      ),
    ),
  );
}

/** Which app the deployment runs as now, and the one made here before. */
function stateLine(/** @type {any} */ info) {
  const now = info.appId ? t('setup.feishu.mode.on', { appId: info.appId }) : t('setup.feishu.mode.off');
  const made = info.created;
  return [
    h('p', { class: 'muted small' }, t('setup.feishu.intro'), ' ', now),
    made
      ? notice(
          'info',
          t('setup.feishu.created-before'),
          ' ',
          h('strong', { id: 'feishu-app-created' }, made.appId),
          ` (${made.brand === 'lark' ? 'Lark' : 'Feishu'}, `,
          when(made.createdAt),
          ')',
        )
      : null,
    info.eventMode === 'http' ? notice('info', t('setup.feishu.http-mode')) : null,
  ];
}

/**
 * The "Feishu app" section of the setup page (issue 33 item 6): what the app gets, a button that
 * begins a registration with all of it preset and shows its QR code, and the result. The manual
 * guide stays linked for those who prefer the developer console.
 */
export async function feishuAppSection() {
  const info = await get('/panel/api/feishu-app');
  const out = h('div', { 'aria-live': 'polite' });
  const form = h(
    'form',
    { id: 'feishu-app-form' },
    h(
      'div',
      { class: 'row' },
      h(
        'div',
        { class: 'field grow' },
        h('label', { for: 'feishu-app-name' }, t('setup.feishu.name')),
        h('input', { id: 'feishu-app-name', value: 'Switchyard', maxlength: 30, required: true }),
      ),
      h(
        'div',
        { class: 'field' },
        h('button', { type: 'submit', class: 'primary' }, t('setup.feishu.create')),
      ),
    ),
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const name = /** @type {HTMLInputElement} */ (document.getElementById('feishu-app-name')).value.trim();
    replace(out, h('p', { class: 'muted' }, t('setup.feishu.starting')));
    const res = await request('POST', '/panel/api/feishu-app/registrations', { name });
    if (!res.ok)
      return replace(out, notice('problem', t('setup.feishu.not-started', { error: refusal(res) })));
    showScan(out, res.body);
  });
  return h(
    'section',
    { class: 'card', id: 'feishu-app' },
    h('h2', null, t('setup.feishu.title')),
    ...stateLine(info),
    needsTable(info.needs),
    form,
    out,
    h('p', { class: 'muted small' }, t('setup.feishu.manual'), ' ', h('code', null, 'docs/feishu-setup.md')),
  );
}
