import { h, notice, replace, toast } from '../dom.js';
import { conflictView } from './conflict-view.js';
import { problemsList } from './problems-list.js';
import { promptPreview } from './prompt-preview.js';
import { load, save, state } from './prompts-state.js';
import { sectionCard } from './section-card.js';
import { skillsEditor, teamParagraphs } from './team-skills.js';

const TABS = [
  ['sections', 'Sections'],
  ['team', 'Team & skills'],
  ['preview', 'Preview'],
];
let tab = 'sections';

/** Prompt settings (R-E1, R-E6, R-F2): sections, team text and skills, preview; one draft. */
export async function promptsPage(/** @type {HTMLElement} */ root) {
  await load();
  render(root);
}

/** @param {HTMLElement} root */
function render(root) {
  const view = state.view;
  if (!view) return;
  const updated = view.sections.filter((/** @type {any} */ s) => s.defaultChanged).length;
  const saveButton = h(
    'button',
    { type: 'button', class: 'primary', id: 'save-prompts', onclick: () => void doSave(root) },
    'Save',
  );
  const discard = h(
    'button',
    { type: 'button', class: 'quiet', disabled: !state.dirty, onclick: () => void reload(root) },
    'Discard changes',
  );
  const dirtyMark = h(
    'span',
    { class: 'dirty', 'aria-live': 'polite' },
    state.dirty ? 'Unsaved changes' : 'All changes saved',
  );
  // Listeners belong to the elements of one render; the preview adds its own below.
  state.listeners.clear();
  state.listeners.add(() => {
    dirtyMark.textContent = 'Unsaved changes';
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
        h('h1', null, 'Prompt settings'),
        h(
          'p',
          { class: 'muted small' },
          `Revision ${view.revision}`,
          updated ? ` · ${updated} section${updated > 1 ? 's' : ''} with an updated default` : '',
        ),
      ),
      h('div', { class: 'actions' }, dirtyMark, discard, saveButton),
    ),
    conflictView({ saveOver: () => void saveOver(root), discard: () => void reload(root) }),
    state.problems.length
      ? h(
          'div',
          { class: 'notice problem', id: 'save-problems' },
          `Not saved: ${state.problems.length} problem${state.problems.length > 1 ? 's' : ''}. Each is also shown where it applies.`,
          problemsList(state.problems),
        )
      : null,
    h(
      'div',
      { class: 'tabs', role: 'tablist', 'aria-label': 'Prompt settings parts' },
      TABS.map(([id, label]) =>
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
          label,
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
    h(
      'p',
      { class: 'muted' },
      'Each built-in section with its default and the team’s override. A section without an override follows new defaults.',
    ),
    view.staleSections.length
      ? notice(
          'info',
          `Saved overrides for sections this release no longer has (dropped on the next save): ${view.staleSections.join(', ')}`,
        )
      : null,
    h(
      'ul',
      { class: 'section-index', 'aria-label': 'Jump to a section' },
      view.sections.map((/** @type {any} */ s) => {
        const mine = state.draft?.overrides[s.key];
        const cls = s.defaultChanged && mine ? 'updated' : mine ? 'overridden' : '';
        const note = s.defaultChanged && mine ? ' (default updated)' : mine ? ' (overridden)' : '';
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
  if (result.ok) toast(`Saved revision ${result.revision}`);
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
  toast(`Loaded revision ${state.view.revision}`);
}
