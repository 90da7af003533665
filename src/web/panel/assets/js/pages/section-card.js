import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { unifiedView } from '../line-diff.js';
import { problemsList } from './problems-list.js';
import { changed, problemsAt, state } from './prompts-state.js';

/** Rows a textarea shows: its text's lines, between 6 and 28. @param {string} text */
const rowsFor = (text) => Math.max(6, Math.min(28, text.split('\n').length + 1));

/**
 * One built-in section: its default beside the team's override (R-E1). When the default changed
 * under an override (R-E6): a "Default updated" badge, the coloured diff old → new default beside
 * the team's text, and keep mine / adopt default / edit.
 * @param {any} section a `sections[]` entry of `GET /api/prompts`
 */
export function sectionCard(section) {
  const card = h('article', { class: 'section-card', id: `section-${section.key}`, 'data-key': section.key });
  const render = () => replace(card, ...content(section, render));
  render();
  return card;
}

/** @param {any} s @param {() => void} rerender */
function content(s, rerender) {
  const draft = state.draft;
  if (!draft) return [];
  const mine = draft.overrides[s.key];
  const updated = s.defaultChanged && mine !== undefined && mine.base !== s.default;
  const resolved = s.defaultChanged && mine !== undefined && mine.base === s.default;
  const header = h(
    'header',
    null,
    h('h3', null, s.key),
    updated ? h('span', { class: 'badge warn' }, t('section.default-updated')) : null,
    resolved ? h('span', { class: 'badge ok' }, t('section.kept-on-save')) : null,
    mine
      ? h('span', { class: 'badge' }, t('section.overridden'))
      : h('span', { class: 'badge quiet' }, t('section.follows-default')),
    s.placeholders.length
      ? h(
          'span',
          { class: 'muted small' },
          `${t('section.must-keep')} `,
          s.placeholders.map((p) => h('code', null, p)),
        )
      : null,
  );
  const left =
    updated || resolved
      ? h(
          'div',
          { class: 'col' },
          h('h4', null, t('section.what-changed')),
          unifiedView(s.diff, t('section.diff-label', { key: s.key })),
        )
      : h(
          'div',
          { class: 'col' },
          h('h4', null, t('section.default')),
          h('pre', { class: 'text default' }, s.default),
        );
  const right = h(
    'div',
    { class: 'col' },
    h('h4', null, mine ? t('section.team-override') : t('section.team-override-none')),
    editor(s, mine, rerender),
  );
  return [
    header,
    updated ? upgradeActions(s, rerender) : null,
    h('div', { class: 'side-by-side' }, left, right),
    problemsList(problemsAt(`overrides.${s.key}`)),
  ];
}

/** @param {any} s @param {{ text: string, base?: string } | undefined} mine @param {() => void} rerender */
function editor(s, mine, rerender) {
  const draft = state.draft;
  if (!draft) return null;
  if (!mine) {
    return h(
      'button',
      {
        type: 'button',
        onclick: () => {
          draft.overrides[s.key] = { text: s.default };
          changed();
          rerender();
          document.getElementById(`override-${s.key}`)?.focus();
        },
      },
      t('section.override'),
    );
  }
  const id = `override-${s.key}`;
  return h(
    'div',
    { class: 'editor' },
    h('label', { for: id, class: 'sr-only' }, t('section.override-of', { key: s.key })),
    h('textarea', {
      id,
      rows: rowsFor(mine.text),
      spellcheck: 'false',
      value: mine.text,
      oninput: (/** @type {Event} */ e) => {
        mine.text = /** @type {HTMLTextAreaElement} */ (e.target).value;
        changed();
      },
    }),
    h(
      'button',
      {
        type: 'button',
        class: 'quiet',
        onclick: () => {
          delete draft.overrides[s.key];
          changed();
          rerender();
        },
      },
      t('section.remove'),
    ),
  );
}

/** Keep mine, adopt default, edit (R-E6); each changes the draft, Save commits it. */
function upgradeActions(s, rerender) {
  const draft = state.draft;
  if (!draft) return null;
  const mine = draft.overrides[s.key];
  const keep = () => {
    if (mine) mine.base = s.default;
    changed();
    rerender();
  };
  const adopt = () => {
    delete draft.overrides[s.key];
    changed();
    rerender();
  };
  const edit = () => {
    if (mine) mine.base = s.default;
    changed();
    rerender();
    document.getElementById(`override-${s.key}`)?.focus();
  };
  return h(
    'div',
    { class: 'upgrade-actions', role: 'group', 'aria-label': t('section.updated-of', { key: s.key }) },
    h('span', { class: 'muted' }, t('section.changed-under')),
    h('button', { type: 'button', onclick: keep }, t('section.keep')),
    h('button', { type: 'button', onclick: adopt }, t('section.adopt')),
    h('button', { type: 'button', onclick: edit }, t('section.edit')),
  );
}
