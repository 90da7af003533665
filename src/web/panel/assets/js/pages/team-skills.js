import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { problemsList } from './problems-list.js';
import { changed, problemsAt, state } from './prompts-state.js';

/** Each team paragraph's help is its `team.help.<field>` text. */
const TEAM_FIELDS = new Set(['about', 'process', 'conventions']);

/** The three team paragraphs under their fixed headings (R-E1, R-E2). */
export function teamParagraphs() {
  const view = state.view;
  const draft = state.draft;
  if (!view || !draft) return null;
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'team-h' },
    h('h2', { id: 'team-h' }, t('team.paragraphs')),
    h('p', { class: 'muted' }, t('team.paragraphs-hint')),
    Object.entries(view.teamHeadings).map(([field, heading]) => {
      const id = `team-${field}`;
      return h(
        'div',
        { class: 'field', 'data-key': `team.${field}` },
        h('label', { for: id }, String(heading).replace(/^#+\s*/, '')),
        h('span', { class: 'muted small' }, TEAM_FIELDS.has(field) ? t(`team.help.${field}`) : ''),
        h('textarea', {
          id,
          rows: 5,
          value: draft.team[field] ?? '',
          oninput: (/** @type {Event} */ e) => {
            draft.team[field] = /** @type {HTMLTextAreaElement} */ (e.target).value;
            changed();
          },
        }),
        problemsList(problemsAt(`team.${field}`)),
      );
    }),
  );
}

/** The team's skills (editable) beside the built-in ones (read only, names reserved, R-F4). */
export function skillsEditor() {
  const box = h('section', { class: 'card', 'aria-labelledby': 'skills-h' });
  const render = () => replace(box, ...skillsContent(render));
  render();
  return box;
}

/** @param {() => void} rerender */
function skillsContent(rerender) {
  const view = state.view;
  const draft = state.draft;
  if (!view || !draft) return [];
  const add = () => {
    draft.skills.push({ name: '', description: '', text: '' });
    changed();
    rerender();
    document.getElementById(`skill-${draft.skills.length - 1}-name`)?.focus();
  };
  return [
    h('h2', { id: 'skills-h' }, t('team.skills')),
    h('p', { class: 'muted' }, t('team.skills-hint')),
    draft.skills.length === 0 ? h('p', { class: 'muted' }, t('team.no-skills')) : null,
    draft.skills.map((skill, i) => skillFields(skill, i, rerender)),
    problemsList(problemsAt('skills').filter((p) => !/^skills\.\d+/.test(p.key))),
    h('button', { type: 'button', onclick: add }, t('team.add-skill')),
    h(
      'details',
      { class: 'builtin-skills' },
      h('summary', null, t('team.builtin-skills', { n: view.skills.builtin.length })),
      view.skills.builtin.map((/** @type {any} */ s) =>
        h(
          'div',
          { class: 'builtin-skill' },
          h('h4', null, s.name),
          s.description ? h('p', { class: 'muted' }, s.description) : null,
          h('pre', { class: 'text' }, s.text),
        ),
      ),
    ),
  ];
}

/** @param {{ name: string, description?: string, text: string }} skill @param {number} i @param {() => void} rerender */
function skillFields(skill, i, rerender) {
  const draft = state.draft;
  const bind = (/** @type {'name' | 'description' | 'text'} */ field) => (/** @type {Event} */ e) => {
    skill[field] = /** @type {HTMLInputElement} */ (e.target).value;
    changed();
  };
  const remove = () => {
    draft?.skills.splice(i, 1);
    changed();
    rerender();
  };
  const id = `skill-${i}`;
  return h(
    'fieldset',
    { class: 'skill', 'data-key': `skills.${i}` },
    h('legend', null, skill.name || t('team.new-skill', { n: i + 1 })),
    h(
      'div',
      { class: 'row' },
      h(
        'div',
        { class: 'field' },
        h('label', { for: `${id}-name` }, t('team.skill-name')),
        h('input', { id: `${id}-name`, value: skill.name, oninput: bind('name') }),
      ),
      h(
        'div',
        { class: 'field grow' },
        h('label', { for: `${id}-description` }, t('team.skill-description')),
        h('input', { id: `${id}-description`, value: skill.description ?? '', oninput: bind('description') }),
      ),
    ),
    h(
      'div',
      { class: 'field' },
      h('label', { for: `${id}-text` }, t('team.skill-text')),
      h('textarea', { id: `${id}-text`, rows: 6, value: skill.text, oninput: bind('text') }),
    ),
    problemsList(problemsAt(`skills.${i}`)),
    h(
      'button',
      { type: 'button', class: 'quiet', onclick: remove },
      t('team.remove-skill', { name: skill.name || i + 1 }),
    ),
  );
}
