import { h, notice, replace, toast } from '../dom.js';
import { t } from '../i18n.js';
import { conflictView } from './conflict-view.js';
import { problemsList } from './problems-list.js';
import { promptPreview } from './prompt-preview.js';
import { load, save, state } from './prompts-state.js';
import { sectionCard } from './section-card.js';
import { skillsEditor, teamParagraphs } from './team-skills.js';

/** The tabs; each one's label is its `prompts.tab.<id>` text. */
const TABS = ['sections', 'team', 'preview'];
let tab = 'sections';

/** Prompt settings (R-E1, R-E6, R-F2): sections, team text and skills, preview; one draft. */
export async function promptsPage(/** @type {HTMLElement} */ root) {
  await load();
  // A later navigation took this view out (main.js): its render would take the listeners.
  if (root.isConnected) render(root);
}

/** @param {HTMLElement} root */
function render(root) {
  const view = state.view;
  if (!view) return;
  const updated = view.sections.filter((/** @type {any} */ s) => s.defaultChanged).length;
  const saveButton = h(
    'button',
    { type: 'button', class: 'primary', id: 'save-prompts', onclick: () => void doSave(root) },
    t('prompts.save'),
  );
  const discard = h(
    'button',
    { type: 'button', class: 'quiet', disabled: !state.dirty, onclick: () => void reload(root) },
    t('prompts.discard'),
  );
  const dirtyMark = h(
    'span',
    { class: 'dirty', 'aria-live': 'polite' },
    state.dirty ? t('prompts.unsaved') : t('prompts.all-saved'),
  );
  // Listeners belong to the elements of one render; the preview adds its own below.
  state.listeners.clear();
  state.listeners.add(() => {
    dirtyMark.textContent = t('prompts.unsaved');
    discard.removeAttribute('disabled');
  });
  const page = h('div', {
    class: 'prompts-page',
    onkeydown: (/** @type {KeyboardEvent} */ e) => {
      if ((e.ctrlKey || e.metaKey) && e.key === 's') {
        e.preventDefault();
        void doSave(root);
      }
    },
  });
  replace(root, page);
  replace(
    page,
    h(
      'div',
      { class: 'page-head sticky' },
      h(
        'div',
        null,
        h('h1', null, t('page.prompts')),
        h(
          'p',
          { class: 'muted small' },
          t('prompts.revision', { revision: view.revision }),
          updated ? ` · ${t('prompts.updated-defaults', { n: updated })}` : '',
        ),
      ),
      h('div', { class: 'actions' }, dirtyMark, discard, saveButton),
    ),
    conflictView({ saveOver: () => void saveOver(root), discard: () => void reload(root) }),
    state.problems.length
      ? h(
          'div',
          { class: 'notice problem', id: 'save-problems' },
          t('prompts.not-saved', { n: state.problems.length }),
          problemsList(state.problems),
        )
      : null,
    h(
      'div',
      { class: 'tabs', role: 'tablist', 'aria-label': t('prompts.parts') },
      TABS.map((id) =>
        h(
          'button',
          {
            type: 'button',
            role: 'tab',
            'aria-selected': String(tab === id),
            onclick: () => {
              tab = id;
              render(root);
            },
          },
          t(`prompts.tab.${id}`),
        ),
      ),
    ),
    tab === 'sections'
      ? sectionsTab(view)
      : tab === 'team'
        ? [teamParagraphs(), skillsEditor()]
        : promptPreview(),
  );
}

/** @param {any} view */
function sectionsTab(view) {
  return h(
    'div',
    { class: 'sections' },
    // The tab's own heading, for screen readers: each section's h3 sits under it (issue 49 item 6).
    h('h2', { class: 'sr-only' }, t('prompts.tab.sections')),
    h('p', { class: 'muted' }, t('prompts.sections-hint')),
    view.staleSections.length
      ? notice('info', t('prompts.stale', { sections: view.staleSections.join(', ') }))
      : null,
    h(
      'ul',
      { class: 'section-index', 'aria-label': t('prompts.jump') },
      view.sections.map((/** @type {any} */ s) => {
        const mine = state.draft?.overrides[s.key];
        const cls = s.defaultChanged && mine ? 'updated' : mine ? 'overridden' : '';
        const note =
          s.defaultChanged && mine
            ? ` ${t('prompts.note.updated')}`
            : mine
              ? ` ${t('prompts.note.overridden')}`
              : '';
        return h(
          'li',
          null,
          h(
            'a',
            {
              href: '#/prompts',
              class: cls,
              'data-target': `section-${s.key}`,
              'aria-label': `${s.key}${note}`,
              onclick: jump,
            },
            s.key,
          ),
        );
      }),
    ),
    view.sections.map(sectionCard),
  );
}

/** Scrolls to a section without changing the hash route. @param {Event} e */
function jump(e) {
  e.preventDefault();
  const target = document.getElementById(/** @type {HTMLElement} */ (e.currentTarget).dataset.target ?? '');
  target?.scrollIntoView({ block: 'start' });
  target?.querySelector('textarea, button')?.focus({ preventScroll: true });
}

/** @param {HTMLElement} root */
async function doSave(root) {
  const result = await save();
  render(root);
  if (result.ok) toast(t('prompts.saved', { revision: result.revision }));
  // The conflict and the problem summary sit at the top, under the sticky header.
  else window.scrollTo({ top: 0 });
}

/** Conflict, second way: save the draft on top of the version that won. @param {HTMLElement} root */
async function saveOver(root) {
  if (!state.conflict) return;
  state.baseRevision = state.conflict.currentRevision;
  await doSave(root);
}

/** @param {HTMLElement} root */
async function reload(root) {
  await load(true);
  render(root);
  toast(t('prompts.loaded', { revision: state.view.revision }));
}
