import { get } from '../api.js';
import { h, replace } from '../dom.js';
import { currentLang, t } from '../i18n.js';
import {
  channelsCard,
  deliveriesCard,
  doctorCard,
  modelCard,
  queuesCard,
  ticketsCard,
} from './home-cards.js';
import { needsSection } from './needs-you.js';

/** How often Home asks again while it is shown (the doctor's part is at most a minute old). */
const POLL_MS = 5000;

/**
 * The landing page (issue 33 item 1): what needs a person first (issue 49 item 3), channels, the model, the doctor's findings, tickets by
 * state, failing deliveries and queues — live, each linking to where one acts on it.
 */
export async function homePage(/** @type {HTMLElement} */ root) {
  const grid = h('div', { class: 'home-grid' });
  const stamp = h('p', { class: 'muted small', 'aria-live': 'off' });
  replace(
    root,
    h(
      'div',
      { class: 'page-head' },
      h('div', null, h('h1', null, t('page.home')), h('p', { class: 'muted small' }, t('home.hint'))),
    ),
    grid,
    stamp,
  );
  const draw = async () => {
    const [home, needs] = await Promise.all([
      get(`/api/home?lang=${encodeURIComponent(currentLang())}`),
      get('/api/needs-you'),
    ]);
    replace(
      grid,
      needsSection(needs.items, () => void draw(), 'card home-card needs'),
      channelsCard(home.channels),
      modelCard(home.model),
      doctorCard(home.doctor),
      deliveriesCard(home.deliveries),
      ticketsCard(home.tickets),
      queuesCard(home.queues),
    );
    stamp.textContent = t('home.updated', {
      at: new Date().toLocaleTimeString(document.documentElement.lang || undefined),
    });
  };
  await draw();
  const timer = setInterval(() => {
    if (!grid.isConnected) clearInterval(timer);
    // A failed poll is tried again at the next tick; the stamp says when it last worked.
    else void draw().catch(() => undefined);
  }, POLL_MS);
}
