import { get, request } from '../api.js';
import { h, notice, replace, toast } from '../dom.js';
import { t, tOr } from '../i18n.js';
import { refusal } from './setup-refusal.js';

export const CALLBACK_PATH = '/panel/github-app/callback';

/** GitHub's redirect back (`code`, `state`), taken from the address once at start-up. */
let pending = /** @type {{ code: string, state: string } | null} */ (null);

/**
 * Called by `main.js` before it tidies the address: when GitHub sent the browser back to the
 * callback, keeps `code` and `state` for the setup page and shows that page.
 */
export function takeGitHubCallback() {
  if (location.pathname !== CALLBACK_PATH) return;
  const q = new URLSearchParams(location.search);
  pending = { code: q.get('code') ?? '', state: q.get('state') ?? '' };
  history.replaceState(null, '', '/panel/#/setup');
}

/** Posts the manifest to GitHub as a form (GitHub's manifest flow is a browser form post). */
function postToGitHub(/** @type {string} */ action, /** @type {unknown} */ manifest) {
  const form = h(
    'form',
    { method: 'post', action, hidden: true },
    h('input', { type: 'hidden', name: 'manifest', value: JSON.stringify(manifest) }),
  );
  document.body.append(form);
  /** @type {HTMLFormElement} */ (form).submit();
}

/** The App credentials GitHub handed over, shown once for `.env`. */
function createdView(/** @type {any} */ body) {
  const env = h(
    'textarea',
    { id: 'github-app-env', rows: 12, readonly: true, spellcheck: 'false' },
    body.env,
  );
  return h(
    'div',
    { id: 'github-app-result' },
    notice('ok', t('setup.app.created'), ' ', h('strong', null, body.app.slug), ` (id ${body.app.id})`),
    h('p', null, t('setup.app.env-help')),
    env,
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
      h(
        'a',
        { class: 'button primary', href: body.app.installUrl, id: 'github-app-install' },
        t('setup.app.install'),
      ),
    ),
  );
}

async function redeem(/** @type {HTMLElement} */ out) {
  const taken = pending;
  pending = null;
  if (!taken) return;
  const res = await request('POST', '/panel/api/github-app/conversions', taken);
  if (res.ok) replace(out, createdView(res.body));
  else replace(out, notice('problem', t('setup.app.not-created', { error: refusal(res) })));
}

function needsTable(/** @type {any[]} */ needs) {
  return h(
    'table',
    { class: 'table', id: 'github-app-needs' },
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        h('th', null, t('setup.app.col.permission')),
        h('th', null, t('setup.app.col.access')),
        h('th', null, t('setup.app.col.events')),
        h('th', null, t('setup.app.col.why')),
      ),
    ),
    h(
      'tbody',
      null,
      needs.map((n) =>
        h(
          'tr',
          null,
          h('td', null, h('code', null, n.permission)),
          h('td', null, n.level),
          h('td', null, n.events.join(', ') || '—'),
          h('td', { class: 'muted small' }, tOr(`setup.app.why.${n.permission.replaceAll('_', '-')}`, n.why)),
        ),
      ),
    ),
  );
}

/** The "GitHub App" section of the setup page: what the App gets, the form, the result. */
export async function githubAppSection() {
  const info = await get('/panel/api/github-app');
  const out = h('div', { 'aria-live': 'polite' });
  const field = (
    /** @type {string} */ id,
    /** @type {string} */ label,
    /** @type {Record<string, unknown>} */ attrs,
  ) => h('div', { class: 'field grow' }, h('label', { for: id }, label), h('input', { id, ...attrs }));
  const form = h(
    'form',
    { id: 'github-app-form' },
    h(
      'div',
      { class: 'row' },
      field('github-app-name', t('setup.app.name'), {
        value: `switchyard-${Math.random().toString(36).slice(2, 7)}`,
        maxlength: 34,
        required: true,
      }),
      field('github-app-org', t('setup.app.org'), { placeholder: 'my-org' }),
      field('github-app-url', t('setup.app.url'), {
        value: info.publicUrl ?? location.origin,
        required: true,
      }),
    ),
    h('button', { type: 'submit', class: 'primary' }, t('setup.app.create')),
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const value = (/** @type {string} */ id) =>
      /** @type {HTMLInputElement} */ (document.getElementById(id)).value.trim();
    const res = await request('POST', '/panel/api/github-app/manifest', {
      name: value('github-app-name'),
      org: value('github-app-org'),
      publicUrl: value('github-app-url'),
    });
    if (!res.ok) return replace(out, notice('problem', refusal(res)));
    postToGitHub(res.body.action, res.body.manifest);
  });
  const made = info.created;
  const section = h(
    'section',
    { class: 'card', id: 'github-app' },
    h('h2', null, t('setup.app.title')),
    h(
      'p',
      { class: 'muted small' },
      t('setup.app.intro', { webUrl: info.webUrl }),
      ' ',
      info.mode === 'token'
        ? t('setup.app.mode.token')
        : info.mode === 'app'
          ? t('setup.app.mode.app', { appId: info.appId })
          : t('setup.app.mode.off'),
    ),
    needsTable(info.needs),
    made
      ? notice(
          'info',
          t('setup.app.created-before'),
          ' ',
          h('a', { href: made.htmlUrl, id: 'github-app-created' }, `${made.slug} (id ${made.id})`),
          ' · ',
          h('a', { href: made.installUrl }, t('setup.app.install-it')),
        )
      : null,
    // Issue 49: the demo's local GitHub has no App registration; say so instead of a form that
    // would land on its raw answer.
    info.demo ? notice('info', t('setup.app.demo')) : form,
    out,
  );
  await redeem(out);
  return section;
}
