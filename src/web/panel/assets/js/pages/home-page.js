import { h, replace } from '../dom.js';
import { t } from '../i18n.js';

/** The landing page (issue 33 item 1): what is happening, what failed. */
export async function homePage(/** @type {HTMLElement} */ root) {
  replace(root, h('div', { class: 'page-head' }, h('h1', null, t('page.home'))));
}
