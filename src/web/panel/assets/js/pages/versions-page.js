import { get, request } from '../api.js';
import { h, notice, replace, toast, when } from '../dom.js';
import { t } from '../i18n.js';
import { changedNames, configDiffView } from './config-diff.js';
import { evaluateCard } from './evaluate-card.js';
import { payload, state as promptsState } from './prompts-state.js';

const EMPTY = { team: {}, overrides: {}, skills: [] };

/**
 * Versions of the prompt settings (R-F1): list with what each changed, view one, diff any two,
 * restore one or the defaults (each a new version); evaluate the unsaved draft or a saved version
 * against the published prompts on the eval tasks (issue 29).
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
      toast(t('versions.restored', { what: label, revision: res.body.revision }));
      if (!promptsState.dirty) promptsState.draft = null;
      await versionsPage(root, []);
    } else if (res.status === 409)
      replace(status, notice('problem', t('versions.conflict', { revision: res.body.currentRevision })));
    else
      replace(
        status,
        notice(
          'problem',
          t('versions.refused', {
            status: res.status,
            error: JSON.stringify(res.body?.errors ?? res.body?.error),
          }),
        ),
      );
  };
  const from = select(
    'diff-from',
    t('versions.from'),
    versions,
    args[0] === 'diff' ? Number(args[1]) : (versions[1]?.revision ?? 0),
  );
  const to = select('diff-to', t('versions.to'), versions, args[0] === 'diff' ? Number(args[2]) : head);
  const evaluate = evaluateCard({ draft: promptsState.dirty && promptsState.draft ? payload() : null });
  const evaluateVersion = (/** @type {number} */ revision) => {
    evaluate.card.scrollIntoView({ block: 'start' });
    void evaluate.start({ version: revision });
  };
  replace(
    root,
    h(
      'div',
      { class: 'page-head' },
      h('div', null, h('h1', null, t('page.versions')), h('p', { class: 'muted small' }, t('versions.hint'))),
      h(
        'div',
        { class: 'actions' },
        h(
          'button',
          {
            type: 'button',
            onclick: () => void restore({ defaults: true }, t('versions.defaults-restored')),
          },
          t('versions.restore-defaults'),
        ),
      ),
    ),
    status,
    versions.length === 0
      ? h('p', { class: 'muted' }, t('versions.empty'))
      : versionTable(versions, byRev, restore, evaluateVersion),
    evaluate.card,
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'compare-h' },
      h('h2', { id: 'compare-h' }, t('versions.compare')),
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
          t('versions.show-diff'),
        ),
      ),
      args[0] === 'diff' ? await diffOf(Number(args[1]), Number(args[2])) : null,
    ),
    args[0] && args[0] !== 'diff' ? await oneVersion(Number(args[0])) : null,
  );
  if (args[0]) root.querySelector('.version-view, .config-diff')?.scrollIntoView({ block: 'start' });
}

/**
 * @param {any[]} versions @param {Map<number, any>} byRev
 * @param {(what: Record<string, unknown>, label: string) => Promise<void>} restore
 * @param {(revision: number) => void} evaluate
 */
function versionTable(versions, byRev, restore, evaluate) {
  return h(
    'table',
    { class: 'table' },
    h('caption', { class: 'sr-only' }, t('versions.caption')),
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        ['revision', 'saved', 'source', 'who', 'changed'].map((c) =>
          h('th', { scope: 'col' }, t(`versions.col.${c}`)),
        ),
        h('th', { scope: 'col' }),
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
            i === 0 ? h('span', { class: 'badge ok' }, t('versions.current')) : null,
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
                  ` ${t('versions.restored-from', { from: v.restoredFrom === 'defaults' ? t('versions.defaults') : `r${v.restoredFrom}` })}`,
                )
              : null,
          ),
          h('td', null, v.who ?? '—'),
          h(
            'td',
            { class: 'changed' },
            names === null
              ? h('span', { class: 'muted' }, t('versions.older'))
              : names.length
                ? names.join(', ')
                : h('span', { class: 'muted' }, t('versions.no-change')),
          ),
          h(
            'td',
            null,
            h(
              'div',
              { class: 'row-actions' },
              h('a', { href: `#/versions/${v.revision}`, class: 'button' }, t('versions.view')),
              i === 0
                ? null
                : h(
                    'button',
                    {
                      type: 'button',
                      onclick: () =>
                        void restore(
                          { revision: v.revision },
                          t('versions.revision-restored', { revision: v.revision }),
                        ),
                    },
                    t('versions.restore', { revision: v.revision }),
                  ),
              // The current version is what the candidate is measured against.
              i === 0
                ? null
                : h(
                    'button',
                    { type: 'button', onclick: () => evaluate(v.revision) },
                    t('versions.evaluate', { revision: v.revision }),
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
      h('option', { value: r, selected: r === chosen }, r === 0 ? t('versions.r0') : `r${r}`),
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
    h('h2', { id: 'version-h' }, t('versions.revision', { revision: v.revision })),
    h(
      'p',
      { class: 'muted small' },
      t(v.who ? 'versions.meta-by' : 'versions.meta', {
        source: v.source,
        who: v.who ?? '',
        at: when(v.createdAt ?? v.at),
        predecessor: v.predecessor ?? t('none'),
      }),
    ),
    h('h3', null, t('team.paragraphs')),
    Object.keys(c.team).length
      ? Object.entries(c.team).map(([k, text]) => [h('h4', null, k), h('pre', { class: 'text' }, text)])
      : h('p', { class: 'muted' }, t('ticket.none')),
    h('h3', null, t('versions.overrides')),
    Object.keys(c.overrides).length
      ? Object.entries(c.overrides).map(([k, o]) => [
          h('h4', null, k),
          h('pre', { class: 'text' }, /** @type {any} */ (o).text),
        ])
      : h('p', { class: 'muted' }, t('versions.no-overrides')),
    h('h3', null, t('team.skills')),
    c.skills.length
      ? c.skills.map((/** @type {any} */ s) => [h('h4', null, s.name), h('pre', { class: 'text' }, s.text)])
      : h('p', { class: 'muted' }, t('ticket.none')),
  );
}
