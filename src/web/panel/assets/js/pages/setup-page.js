import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { chatReposSection } from './chat-repos-section.js';
import { feishuAppSection } from './feishu-app-section.js';
import { githubAppSection } from './github-app-section.js';

/**
 * Connecting the deployment (issue 16): the GitHub App, the Feishu app (by scanning, issue 33
 * item 6), and each chat's repository and language.
 */
export async function setupPage(/** @type {HTMLElement} */ root) {
  const sections = [await githubAppSection(), await feishuAppSection(), await chatReposSection()];
  replace(
    root,
    h(
      'div',
      { class: 'page-head' },
      h('div', null, h('h1', null, t('page.setup')), h('p', { class: 'muted small' }, t('setup.intro'))),
    ),
    ...sections,
  );
}
