import { h } from './dom.js';
import { t } from './i18n.js';

/**
 * Keyboard shortcuts (issue 49 item 4): `/` goes to the ticket search, `?` shows the shortcuts.
 * Typing in a field is never taken for a shortcut.
 */

const SEARCH = '#tickets-q';
let searchWanted = false;

const typing = (/** @type {EventTarget | null} */ el) =>
  el instanceof HTMLElement && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));

/** The search box, focused when a `/` asked for it; true when it took the focus. */
export function takeSearchFocus() {
  const box = /** @type {HTMLInputElement | null} */ (document.querySelector(SEARCH));
  if (!searchWanted || !box) return false;
  searchWanted = false;
  box.focus();
  box.select();
  return true;
}

function helpDialog() {
  const old = document.getElementById('shortcuts');
  if (old) old.remove();
  const row = (/** @type {string} */ key, /** @type {string} */ what) =>
    h('div', { class: 'keys-row' }, h('dt', null, h('kbd', null, key)), h('dd', null, what));
  const dialog = /** @type {HTMLDialogElement} */ (
    h(
      'dialog',
      { id: 'shortcuts', class: 'card keys', 'aria-labelledby': 'shortcuts-title' },
      h('h2', { id: 'shortcuts-title' }, t('keys.title')),
      h('dl', null, row('/', t('keys.search')), row('?', t('keys.help'))),
      h('form', { method: 'dialog' }, h('button', { type: 'submit', class: 'primary' }, t('keys.close'))),
    )
  );
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}

/** Listens for the shortcuts, once signed in (`signedIn` says so). */
export function setUpShortcuts(/** @type {() => boolean} */ signedIn) {
  document.addEventListener('keydown', (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey || typing(ev.target) || !signedIn()) return;
    if (document.querySelector('dialog[open]')) return;
    if (ev.key === '/') {
      ev.preventDefault();
      searchWanted = true;
      if (!takeSearchFocus()) location.hash = '#/tickets';
    } else if (ev.key === '?') {
      ev.preventDefault();
      helpDialog();
    }
  });
}
