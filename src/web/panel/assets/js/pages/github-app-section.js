import { get, request } from '../api.js';
import { h, notice, replace, toast } from '../dom.js';

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
    notice('ok', 'GitHub App ', h('strong', null, body.app.slug), ` created (id ${body.app.id}).`),
    h(
      'p',
      null,
      'Put these lines into the deployment’s ',
      h('code', null, '.env'),
      ' and restart. They are shown this once and not stored: the key stays a PEM over several lines, no ',
      h('code', null, '\\n'),
      ' escapes needed.',
    ),
    env,
    h(
      'div',
      { class: 'actions' },
      h(
        'button',
        {
          type: 'button',
          onclick: () => navigator.clipboard?.writeText(body.env).then(() => toast('Copied')),
        },
        'Copy',
      ),
      h(
        'a',
        { class: 'button primary', href: body.app.installUrl, id: 'github-app-install' },
        'Install the App on repositories',
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
  else replace(out, notice('problem', `GitHub App not created: ${res.body?.error ?? res.status}`));
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
        h('th', null, 'Permission'),
        h('th', null, 'Access'),
        h('th', null, 'Events'),
        h('th', null, 'Why'),
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
          h('td', { class: 'muted small' }, n.why),
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
      field('github-app-name', 'App name', {
        value: `switchyard-${Math.random().toString(36).slice(2, 7)}`,
        maxlength: 34,
        required: true,
      }),
      field('github-app-org', 'Organization (empty: your account)', { placeholder: 'my-org' }),
      field('github-app-url', 'Public URL of this deployment', {
        value: info.publicUrl ?? location.origin,
        required: true,
      }),
    ),
    h('button', { type: 'submit', class: 'primary' }, 'Create GitHub App on GitHub'),
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
    if (!res.ok) return replace(out, notice('problem', res.body?.error ?? `answered ${res.status}`));
    postToGitHub(res.body.action, res.body.manifest);
  });
  const made = info.created;
  const section = h(
    'section',
    { class: 'card', id: 'github-app' },
    h('h2', null, 'GitHub App'),
    h(
      'p',
      { class: 'muted small' },
      `Creates an App on ${info.webUrl} with exactly what the bot needs, webhooks to this deployment’s /webhooks/github. `,
      info.mode === 'token'
        ? 'This deployment uses GITHUB_TOKEN now (token mode), which wins over an App.'
        : info.mode === 'app'
          ? `This deployment runs as App ${info.appId}.`
          : 'GitHub is off on this deployment.',
    ),
    needsTable(info.needs),
    made
      ? notice(
          'info',
          'Created here before: ',
          h('a', { href: made.htmlUrl, id: 'github-app-created' }, `${made.slug} (id ${made.id})`),
          ' · ',
          h('a', { href: made.installUrl }, 'install it'),
        )
      : null,
    form,
    out,
  );
  await redeem(out);
  return section;
}
