import { get } from '../api.js';
import { h, replace } from '../dom.js';
import { t } from '../i18n.js';

const STATES = ['waiting', 'active', 'delayed', 'paused', 'failed', 'completed'];

/** Job counts per BullMQ queue, refreshed every few seconds while the page is shown. */
export async function queuesPage(/** @type {HTMLElement} */ root) {
  const table = h('div');
  const stamp = h('p', { class: 'muted small', 'aria-live': 'off' });
  replace(
    root,
    h(
      'div',
      { class: 'page-head' },
      h('div', null, h('h1', null, t('page.queues')), h('p', { class: 'muted small' }, t('queues.hint'))),
      // bull-board, behind the same sign-in (issue 17): a page of its own, not part of this app.
      h('a', { class: 'button', href: '/panel/queues/board' }, t('queues.board')),
    ),
    table,
    stamp,
  );
  const draw = async () => {
    const { queues } = await get('/api/queues');
    replace(
      table,
      h(
        'table',
        { class: 'table queues' },
        h('caption', { class: 'sr-only' }, t('queues.caption')),
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            h('th', { scope: 'col' }, t('queues.queue')),
            STATES.map((s) => h('th', { scope: 'col', class: 'num' }, t(`queues.state.${s}`))),
          ),
        ),
        h(
          'tbody',
          null,
          queues.map((/** @type {any} */ q) =>
            h(
              'tr',
              { 'data-queue': q.name },
              h('th', { scope: 'row' }, q.name),
              STATES.map((s) =>
                h('td', { class: `num ${s === 'failed' && q[s] ? 'bad' : ''}` }, String(q[s] ?? 0)),
              ),
            ),
          ),
        ),
      ),
    );
    stamp.textContent = t('queues.updated', {
      at: new Date().toLocaleTimeString(document.documentElement.lang || undefined),
    });
  };
  await draw();
  const timer = setInterval(() => {
    if (!table.isConnected) clearInterval(timer);
    else void draw().catch(() => clearInterval(timer));
  }, 3000);
}
