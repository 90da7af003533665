import { h, replace } from '../dom.js';
import { chatReposSection } from './chat-repos-section.js';
import { githubAppSection } from './github-app-section.js';

/** Connecting the deployment (issue 16): the GitHub App, and each chat's default repository. */
export async function setupPage(/** @type {HTMLElement} */ root) {
  const sections = [await githubAppSection(), await chatReposSection()];
  replace(
    root,
    h(
      'div',
      { class: 'page-head' },
      h(
        'div',
        null,
        h('h1', null, 'Setup'),
        h('p', { class: 'muted small' }, 'Connect GitHub and choose each chat’s repository.'),
      ),
    ),
    ...sections,
  );
}
