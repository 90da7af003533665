import { get } from '../api.js';
import { h, replace, when } from '../dom.js';
import { t, tOr } from '../i18n.js';
import { unifiedView } from '../line-diff.js';

/** Files shown unfolded; the rest open on a click. */
const OPEN_FILES = 8;

/**
 * Issue 49 item 2: the change on the ticket — its branch's commits, each with the files it
 * touched, and the diff against the base per file, as `GET /api/tickets/:id/changes` read it
 * from the host's mirror (before a PR exists too). The diff is the branch author's text: shown
 * as text, capped by the server, the files it left out named.
 */
export function changesSection(id) {
  const body = h('div', null, h('p', { class: 'muted' }, t('traj.loading')));
  const section = h(
    'section',
    { class: 'card', 'data-changes': '' },
    h('h2', null, t('changes.title')),
    body,
  );
  let last = '';
  /** @param {any} c */
  const update = (c) => {
    const text = JSON.stringify(c);
    if (text === last) return;
    last = text;
    const open = new Set(
      [...body.querySelectorAll('details')].map((d) => `${d.getAttribute('data-file')}:${d.open}`),
    );
    replace(body, ...view(c, id));
    for (const d of body.querySelectorAll('details[data-file]')) {
      const f = d.getAttribute('data-file');
      if (open.has(`${f}:true`)) d.setAttribute('open', '');
      else if (open.has(`${f}:false`)) d.removeAttribute('open');
    }
  };
  return { section, update };
}

/** @param {any} c @param {string} id */
function view(c, id) {
  if (c.state === 'none') return [h('p', { class: 'muted' }, t('changes.none'))];
  if (c.state === 'unpushed')
    return [h('p', { class: 'muted' }, t('changes.unpushed', { branch: c.branch }))];
  const lines = c.files.reduce(
    (/** @type {number[]} */ n, /** @type {any} */ f) => {
      for (const l of (f.patch ?? '').split('\n')) {
        if (l.startsWith('+') && !l.startsWith('+++')) n[0]++;
        else if (l.startsWith('-') && !l.startsWith('---')) n[1]++;
      }
      return n;
    },
    [0, 0],
  );
  return [
    h(
      'p',
      { class: 'meta' },
      t('changes.summary', {
        files: c.files.length,
        commits: c.commits.length,
        branch: c.branch,
        base: c.base,
      }),
      ' ',
      h('span', { class: 'diff-count add' }, `+${lines[0]}`),
      ' ',
      h('span', { class: 'diff-count del' }, `−${lines[1]}`),
    ),
    c.commits.length
      ? h(
          'details',
          { class: 'commits', 'data-file': ':commits', open: c.commits.length <= 5 },
          h('summary', null, t('changes.commits', { n: c.commits.length })),
          h(
            'ol',
            { class: 'plain commit-list' },
            c.commits.map((/** @type {any} */ k) => commitView(k, id)),
          ),
        )
      : null,
    c.files.map((/** @type {any} */ f, /** @type {number} */ i) => fileView(f, i < OPEN_FILES)),
    c.moreFiles ? h('p', { class: 'muted' }, t('changes.more-files', { n: c.moreFiles })) : null,
  ];
}

/** A commit: its subject, files, and a button that shows its own diff. @param {any} k @param {string} id */
function commitView(k, id) {
  const own = h('div', { class: 'commit-diff' });
  const button = h(
    'button',
    {
      type: 'button',
      class: 'link',
      'aria-expanded': 'false',
      onclick: async () => {
        if (own.firstChild) {
          own.replaceChildren();
          button.setAttribute('aria-expanded', 'false');
          return;
        }
        const one = await get(
          `/api/tickets/${encodeURIComponent(id)}/changes?commit=${encodeURIComponent(k.sha)}`,
        );
        replace(
          own,
          one.files.map((/** @type {any} */ f) => fileView(f, true)),
        );
        button.setAttribute('aria-expanded', 'true');
      },
    },
    t('changes.commit-diff'),
  );
  return h(
    'li',
    { 'data-commit': k.sha },
    h('code', { class: 'muted', title: k.sha }, k.sha.slice(0, 8)),
    ' ',
    h('span', { class: 'tl-subject' }, k.subject),
    ' ',
    h('span', { class: 'muted small' }, when(k.at)),
    ' ',
    button,
    h(
      'div',
      { class: 'small muted mono commit-files' },
      k.files.map((/** @type {any} */ f) => `${f.status} ${f.path}`).join(' · '),
    ),
    own,
  );
}

/** @param {any} f @param {boolean} open */
function fileView(f, open) {
  return h(
    'details',
    { class: 'changed-file', 'data-file': f.path, open: open && f.patch !== null },
    h(
      'summary',
      null,
      h(
        'span',
        { class: `badge file-${f.status[0]}` },
        tOr(`changes.status.${f.status[0].toLowerCase()}`, f.status),
      ),
      ' ',
      h('code', { class: 'file-path' }, f.path),
    ),
    f.patch === null
      ? h('p', { class: 'muted small' }, t('changes.left-out'))
      : [
          unifiedView(
            f.patch
              .split('\n')
              .filter(
                (/** @type {string} */ l) =>
                  !/^(diff --git|index |new file mode|deleted file mode|old mode|new mode)/.test(l),
              )
              .join('\n'),
            t('changes.diff-label', { path: f.path }),
          ),
          f.cut ? h('p', { class: 'muted small' }, t('changes.cut')) : null,
        ],
  );
}
