import { loadSession, rememberWho, SignedOut } from './api.js';
import { h, replace } from './dom.js';
import { askedLang, currentLang, preferredLang, t, useLang } from './i18n.js';
import { setUpMenu } from './menu.js';
import { openView } from './page-view.js';
import { chartsPage } from './pages/charts-page.js';
import { evalPage } from './pages/eval-page.js';
import { eventsPage } from './pages/events-page.js';
import { takeGitHubCallback } from './pages/github-app-section.js';
import { homePage } from './pages/home-page.js';
import { policyPage } from './pages/policy-page.js';
import { promptsPage } from './pages/prompts-page.js';
import { state as promptsState } from './pages/prompts-state.js';
import { queuesPage } from './pages/queues-page.js';
import { setupPage } from './pages/setup-page.js';
import { ticketsPage } from './pages/tickets-page.js';
import { tryItPage } from './pages/try-it-page.js';
import { versionsPage } from './pages/versions-page.js';
import { watchScrollRegions } from './scroll-regions.js';
import { setUpShortcuts, takeSearchFocus } from './shortcuts.js';

/** Hash routes: `#/<page>/<args…>`; each page's title is its `page.<name>` text. */
const PAGES = {
  home: { render: homePage },
  prompts: { render: promptsPage },
  versions: { render: versionsPage },
  policy: { render: policyPage },
  tickets: { render: ticketsPage },
  events: { render: eventsPage },
  queues: { render: queuesPage },
  charts: { render: chartsPage },
  eval: { render: evalPage },
  try: { render: tryItPage },
  setup: { render: setupPage },
};

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

function showSignIn() {
  $('nav').hidden = true;
  $('sign-out').hidden = true;
  replace($('page'));
  $('sign-in').hidden = false;
  const failed = new URLSearchParams(location.search).get('signin');
  const error = $('sign-in-error');
  error.hidden = !failed;
  const why = { disabled: 'sign-in.disabled', required: 'sign-in.required' }[failed ?? ''];
  error.textContent = failed ? t(why ?? 'sign-in.wrong-token') : '';
  $('token').focus();
}

async function route() {
  const [name = 'home', ...args] = location.hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  const page = PAGES[/** @type {keyof typeof PAGES} */ (name)] ?? PAGES.home;
  const current = PAGES[/** @type {keyof typeof PAGES} */ (name)] ? name : 'home';
  for (const a of document.querySelectorAll('#nav a')) {
    if (a instanceof HTMLElement && a.dataset.page === current) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  document.title = `${t(`page.${current}`)} · Switchyard`;
  const root = $('page');
  root.setAttribute('aria-busy', 'true');
  // Only the newest navigation shows: an older page whose answer comes late draws out of sight.
  const { view, isNewest, show } = openView(root);
  try {
    await page.render(view, args);
  } catch (err) {
    if (err instanceof SignedOut) return;
    replace(
      view,
      h(
        'div',
        { class: 'notice problem', role: 'alert' },
        t('page.load-failed', { error: err instanceof Error ? err.message : String(err) }),
      ),
    );
  } finally {
    show();
    if (isNewest()) root.setAttribute('aria-busy', 'false');
  }
}

/** The switch's buttons show which language is on; pressing one loads it, remembers it and redraws. */
function setUpLangSwitch(signedIn = () => !$('nav').hidden) {
  const mark = () => {
    for (const b of document.querySelectorAll('.lang-switch button'))
      if (b instanceof HTMLElement) b.setAttribute('aria-pressed', String(b.dataset.lang === currentLang()));
  };
  mark();
  for (const b of document.querySelectorAll('.lang-switch button'))
    b.addEventListener('click', async () => {
      if (!(b instanceof HTMLElement) || !b.dataset.lang || b.dataset.lang === askedLang()) return;
      if (!(await useLang(b.dataset.lang, true))) return;
      mark();
      if (signedIn()) await route();
      else showSignIn();
    });
}

/**
 * A sign-in link (`npm run demo` prints one): `#signin=<token>&go=<page>`. The token is taken out
 * of the address at once and posted through the sign-in form, as if typed; the form's address
 * carries the page to land on (a redirect keeps the fragment). Never sent in a URL the server sees.
 */
function takeSignInLink() {
  const link = new URLSearchParams(location.hash.replace(/^#/, ''));
  const token = link.get('signin');
  if (!token) return false;
  history.replaceState(null, '', location.pathname);
  const go = link.get('go') ?? '';
  const form = $('sign-in').querySelector('form');
  if (!form) return false;
  /** @type {HTMLInputElement} */ ($('token')).value = token;
  if (/^\w+$/.test(go)) form.action = `/panel/sign-in#/${go}`;
  form.requestSubmit();
  return true;
}

async function start() {
  await useLang(preferredLang());
  setUpLangSwitch();
  setUpMenu();
  if (takeSignInLink()) return;
  $('sign-in')
    .querySelector('form')
    ?.addEventListener('submit', () => rememberWho(/** @type {HTMLInputElement} */ ($('who')).value));
  window.addEventListener('switchyard:signed-out', showSignIn);
  window.addEventListener('beforeunload', (e) => {
    if (promptsState.dirty) e.preventDefault();
  });
  // GitHub's redirect after creating the App: keep its code for the setup page (issue 16).
  takeGitHubCallback();
  if (!(await loadSession())) return showSignIn();
  if (location.search) history.replaceState(null, '', `/panel/${location.hash}`);
  $('nav').hidden = false;
  $('sign-out').hidden = false;
  window.addEventListener(
    'hashchange',
    () => void route().then(() => takeSearchFocus() || $('view').focus({ preventScroll: true })),
  );
  setUpShortcuts(() => !$('nav').hidden);
  watchScrollRegions($('page'));
  await route();
}

void start();
