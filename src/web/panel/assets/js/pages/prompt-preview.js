import { request } from '../api.js';
import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { problemsList } from './problems-list.js';
import { payload, state } from './prompts-state.js';

let which = 'main';

/**
 * The assembled system prompt of the draft, for the main session or an executor, in R-E7 order
 * with each section's boundary marked. Refreshed as the draft changes (debounced).
 */
export function promptPreview() {
  const box = h('section', { class: 'card preview', 'aria-labelledby': 'preview-h' });
  const body = h('div', { class: 'preview-body', 'aria-live': 'polite', 'aria-busy': 'true' }, 'Assembling…');
  const tabs = ['main', 'executor'].map((role) =>
    h(
      'button',
      {
        type: 'button',
        role: 'tab',
        'aria-selected': String(which === role),
        onclick: () => {
          which = role;
          for (const tab of tabs) tab.setAttribute('aria-selected', String(tab.dataset.role === role));
          void refresh();
        },
        'data-role': role,
      },
      role === 'main' ? t('preview.main') : t('preview.executor'),
    ),
  );
  replace(
    box,
    h(
      'div',
      { class: 'preview-head' },
      h('h2', { id: 'preview-h' }, t('preview.title')),
      h('div', { role: 'tablist', class: 'tabs' }, tabs),
    ),
    h('p', { class: 'muted small' }, t('preview.hint')),
    body,
  );
  let timer = 0;
  let seq = 0;
  const refresh = async () => {
    const mine = ++seq;
    body.setAttribute('aria-busy', 'true');
    const res = await request('POST', '/panel/api/preview', payload());
    if (mine !== seq || !res.ok) return;
    body.setAttribute('aria-busy', 'false');
    replace(body, render(res.body));
  };
  const later = () => {
    clearTimeout(timer);
    timer = window.setTimeout(() => void refresh(), 350);
  };
  // The prompts page clears the listeners whenever it renders again.
  state.listeners.add(later);
  void refresh();
  return box;
}

/** @param {any} preview */
function render(preview) {
  const parts = preview[which] ?? [];
  const chars = parts.reduce((n, p) => n + p.text.length, 0);
  return h(
    'div',
    null,
    preview.problems.length
      ? h('div', { class: 'notice problem' }, t('preview.refused'), problemsList(preview.problems))
      : null,
    h(
      'p',
      { class: 'muted small' },
      t('preview.size', {
        blocks: parts.length,
        chars: chars.toLocaleString(document.documentElement.lang || undefined),
        policy: preview.policyRevision,
      }),
    ),
    h(
      'ol',
      { class: 'assembled' },
      parts.map((p) =>
        h(
          'li',
          { class: p.label ? 'part' : 'part other' },
          h('div', { class: 'part-label' }, p.label ?? t('preview.other')),
          h('pre', { class: 'text' }, p.text),
        ),
      ),
    ),
  );
}
