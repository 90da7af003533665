import { get, request } from '../api.js';
import { h, notice, replace, toast, when } from '../dom.js';
import { changedNames, configDiffView } from './config-diff.js';
import { state as promptsState } from './prompts-state.js';

const EMPTY = { team: {}, overrides: {}, skills: [] };

/**
 * Versions of the prompt settings (R-F1): list with what each changed, view one, diff any two,
 * restore one or the defaults (each a new version).
 * @param {HTMLElement} root
 * @param {string[]} args `['3']` views revision 3; `['diff', '2', '5']` compares two
 */
export async function versionsPage(root, args) {
  const { versions } = await get('/api/prompts/versions');
  const head = versions[0]?.revision ?? 0;
  /** @type {Map<number, any>} */
  const byRev = new Map(versions.map((/** @type {any} */ v) => [v.revision, v]));
  const status = h('div', { 'aria-live': 'polite' });
  const restore = async (/** @type {Record<string, unknown>} */ what, /** @type {string} */ label) => {
    const res = await request('POST', '/api/prompts/restore', { baseRevision: head, ...what });
    if (res.ok) {
      toast(`${label}: now revision ${res.body.revision}`);
      if (!promptsState.dirty) promptsState.draft = null;
      await versionsPage(root, []);
    } else if (res.status === 409)
      replace(
        status,
        notice(
          'problem',
          `Someone saved revision ${res.body.currentRevision} meanwhile; the list is reloaded, try again.`,
        ),
      );
    else
      replace(
        status,
        notice(
          'problem',
          `Restore refused (${res.status}): ${JSON.stringify(res.body?.errors ?? res.body?.error)}`,
        ),
      );
  };
  const from = select(
    'diff-from',
    'From',
    versions,
    args[0] === 'diff' ? Number(args[1]) : (versions[1]?.revision ?? 0),
  );
  const to = select('diff-to', 'To', versions, args[0] === 'diff' ? Number(args[2]) : head);
  replace(
    root,
    h(
      'div',
      { class: 'page-head' },
      h(
        'div',
        null,
        h('h1', null, 'Versions'),
        h(
          'p',
          { class: 'muted small' },
          'Every save is kept. Restoring makes a new version; nothing is rewritten.',
        ),
      ),
      h(
        'div',
        { class: 'actions' },
        h(
          'button',
          { type: 'button', onclick: () => void restore({ defaults: true }, 'Defaults restored') },
          'Restore the defaults',
        ),
      ),
    ),
    status,
    versions.length === 0
      ? h('p', { class: 'muted' }, 'Nothing saved yet: every section follows its default.')
      : versionTable(versions, byRev, restore),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'compare-h' },
      h('h2', { id: 'compare-h' }, 'Compare two versions'),
      h(
        'div',
        { class: 'row' },
        from.field,
        to.field,
        h(
          'button',
          {
            type: 'button',
            onclick: () => {
              location.hash = `#/versions/diff/${from.select.value}/${to.select.value}`;
            },
          },
          'Show differences',
        ),
      ),
      args[0] === 'diff' ? await diffOf(Number(args[1]), Number(args[2])) : null,
    ),
    args[0] && args[0] !== 'diff' ? await oneVersion(Number(args[0])) : null,
  );
  if (args[0]) root.querySelector('.version-view, .config-diff')?.scrollIntoView({ block: 'start' });
}

/** @param {any[]} versions @param {Map<number, any>} byRev @param {(what: Record<string, unknown>, label: string) => Promise<void>} restore */
function versionTable(versions, byRev, restore) {
  return h(
    'table',
    { class: 'table' },
    h('caption', { class: 'sr-only' }, 'Saved versions, newest first'),
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        ['Revision', 'Saved', 'Source', 'Who', 'What changed', ''].map((t) => h('th', { scope: 'col' }, t)),
      ),
    ),
    h(
      'tbody',
      null,
      versions.map((v, i) => {
        const prev = v.predecessor === null ? EMPTY : byRev.get(v.predecessor)?.config;
        const names = prev ? changedNames(prev, v.config) : null;
        return h(
          'tr',
          { 'data-revision': v.revision },
          h(
            'td',
            null,
            h('a', { href: `#/versions/${v.revision}` }, `r${v.revision}`),
            i === 0 ? h('span', { class: 'badge ok' }, 'current') : null,
          ),
          h('td', null, when(v.createdAt ?? v.at)),
          h(
            'td',
            null,
            v.source,
            v.restoredFrom !== undefined
              ? h(
                  'span',
                  { class: 'muted small' },
                  ` (restored ${v.restoredFrom === 'defaults' ? 'defaults' : `r${v.restoredFrom}`})`,
                )
              : null,
          ),
          h('td', null, v.who ?? '—'),
          h(
            'td',
            { class: 'changed' },
            names === null
              ? h('span', { class: 'muted' }, 'older than the list')
              : names.length
                ? names.join(', ')
                : h('span', { class: 'muted' }, 'no change'),
          ),
          h(
            'td',
            null,
            h(
              'div',
              { class: 'row-actions' },
              h('a', { href: `#/versions/${v.revision}`, class: 'button' }, 'View'),
              i === 0
                ? null
                : h(
                    'button',
                    {
                      type: 'button',
                      onclick: () =>
                        void restore({ revision: v.revision }, `Revision ${v.revision} restored`),
                    },
                    `Restore r${v.revision}`,
                  ),
            ),
          ),
        );
      }),
    ),
  );
}

/** @param {string} id @param {string} label @param {any[]} versions @param {number} chosen */
function select(id, label, versions, chosen) {
  const el = h(
    'select',
    { id },
    [...versions.map((v) => v.revision), 0].map((r) =>
      h('option', { value: r, selected: r === chosen }, r === 0 ? 'r0 (defaults)' : `r${r}`),
    ),
  );
  return {
    select: /** @type {HTMLSelectElement} */ (el),
    field: h('div', { class: 'field' }, h('label', { for: id }, label), el),
  };
}

/** @param {number} a @param {number} b */
async function diffOf(a, b) {
  const [x, y] = await Promise.all([get(`/api/prompts/versions/${a}`), get(`/api/prompts/versions/${b}`)]);
  return h('div', null, h('h3', null, `r${a} → r${b}`), configDiffView(x.config, y.config));
}

/** @param {number} rev */
async function oneVersion(rev) {
  const v = await get(`/api/prompts/versions/${rev}`);
  const c = v.config;
  return h(
    'section',
    { class: 'card version-view', 'aria-labelledby': 'version-h' },
    h('h2', { id: 'version-h' }, `Revision ${v.revision}`),
    h(
      'p',
      { class: 'muted small' },
      `${v.source}${v.who ? ` by ${v.who}` : ''}, ${when(v.createdAt ?? v.at)}; predecessor ${v.predecessor ?? 'none'}.`,
    ),
    h('h3', null, 'Team paragraphs'),
    Object.keys(c.team).length
      ? Object.entries(c.team).map(([k, t]) => [h('h4', null, k), h('pre', { class: 'text' }, t)])
      : h('p', { class: 'muted' }, 'None.'),
    h('h3', null, 'Overrides'),
    Object.keys(c.overrides).length
      ? Object.entries(c.overrides).map(([k, o]) => [
          h('h4', null, k),
          h('pre', { class: 'text' }, /** @type {any} */ (o).text),
        ])
      : h('p', { class: 'muted' }, 'None: every section follows its default.'),
    h('h3', null, 'Team skills'),
    c.skills.length
      ? c.skills.map((/** @type {any} */ s) => [h('h4', null, s.name), h('pre', { class: 'text' }, s.text)])
      : h('p', { class: 'muted' }, 'None.'),
  );
}
