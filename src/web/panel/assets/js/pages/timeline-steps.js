import { h } from '../dom.js';
import { t, tOr } from '../i18n.js';
import { diffLines, diffView } from '../line-diff.js';

/**
 * Issue 49 item 1: a run of one turn's agent steps on the timeline — each tool call with the
 * model request that chose it folded in (model, time, tokens), an `edit_file` as its diff
 * (old → new, issue 49 item 2), a command's exit code, the result behind a fold.
 * @param {any} s the timeline's `steps` item
 * @param {number} i
 */
export function stepsItem(s, i) {
  const calls = s.rows.filter((/** @type {any} */ r) => r.kind === 'tool').length;
  return [
    h(
      'div',
      { class: 'tl-head' },
      h('strong', null, s.main ? t('tl.router') : t('tl.agent', { turn: s.turn })),
      ' ',
      calls ? h('span', { class: 'muted' }, t('tl.steps', { n: calls })) : null,
      s.outcome ? h('span', { class: 'badge warn' }, tOr(`tl.outcome.${s.outcome}`, s.outcome)) : null,
    ),
    s.detail ? h('div', { class: 'muted small' }, s.detail) : null,
    h(
      'ol',
      { class: 'tl-rows' },
      s.rows.map((/** @type {any} */ r, k) => rowView(r, `${i}-${k}`)),
    ),
    idDetails(`steps-${i}`, [
      [t('tl.id.session'), s.session],
      [t('tl.id.calls'), s.rows.flatMap((/** @type {any} */ r) => (r.callKey ? [r.callKey] : [])).join(', ')],
    ]),
  ];
}

/** @param {any} r @param {string} key */
function rowView(r, key) {
  if (r.kind !== 'tool')
    return h(
      'li',
      { class: 'tl-row', 'data-row': r.kind },
      h('span', { class: 'muted' }, tOr(`tl.row.${r.kind}`, r.kind)),
      r.text ? fold(r.text, `${key}-text`) : null,
      r.model ? modelLine(r.model) : null,
    );
  const refused = !r.ok;
  return h(
    'li',
    {
      class: `tl-row${refused ? ' refused' : ''}`,
      'data-tool': r.name,
      'data-refused': refused ? 'true' : null,
    },
    h(
      'div',
      { class: 'tl-call' },
      h('span', { class: 'tl-tool' }, tOr(`tl.tool.${String(r.name).replaceAll('_', '-')}`, r.name)),
      ' ',
      r.args ? h('code', { class: 'tl-args' }, r.args) : null,
      refused ? h('span', { class: 'badge warn' }, t('tl.refused')) : null,
      r.exitCode !== undefined
        ? h(
            'span',
            { class: `badge ${r.exitCode === 0 ? 'ok' : 'warn'}` },
            t('traj.exit', { code: r.exitCode }),
          )
        : null,
      r.ms !== undefined ? h('span', { class: 'muted small' }, ` · ${seconds(r.ms)}`) : null,
    ),
    r.edit ? editView(r.edit, r.args) : null,
    r.result ? fold(r.result, `${key}-out`, t('tl.result')) : null,
    r.model ? modelLine(r.model) : null,
  );
}

/** The passage an edit replaced and its replacement, as a diff. @param {any} e @param {string} path */
function editView(e, path) {
  return h(
    'div',
    { class: 'tl-edit' },
    diffView(diffLines(e.old, e.new), { label: t('tl.edit-label', { path: path ?? '' }), context: 2 }),
    e.cut ? h('p', { class: 'muted small' }, t('tl.edit-cut')) : null,
  );
}

/** The model request folded into its call. @param {any} m */
const modelLine = (m) =>
  h(
    'div',
    { class: 'tl-model muted small' },
    t('tl.model', { model: m.name ?? '?', tokens: (m.tokens ?? 0).toLocaleString() }),
    m.ms !== undefined ? ` · ${seconds(m.ms)}` : '',
  );

/** `850 ms`, `1.2 s`. @param {number} ms */
const seconds = (ms) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);

/**
 * A text excerpt: its first line, and the whole behind a fold.
 * @param {{ head: string, full?: string }} x @param {string} key @param {string} [label]
 */
function fold(x, key, label) {
  if (!x.full)
    return x.head ? h('div', { class: 'tl-out muted small' }, label ? `${label}: ` : '', x.head) : null;
  return h(
    'details',
    { class: 'tl-out', 'data-fold': key },
    h('summary', { class: 'small' }, label ? `${label}: ` : '', x.head),
    h('pre', { class: 'text' }, x.full),
  );
}

/**
 * Internal ids (card ids, outbox keys, sessions) behind a Details disclosure: for operators,
 * never in the item's words. Empty values are left out.
 * @param {string} key @param {[string, unknown][]} pairs
 */
export function idDetails(key, pairs) {
  const kept = pairs.filter(([, v]) => v !== undefined && v !== null && v !== '');
  if (!kept.length) return null;
  return h(
    'details',
    { class: 'tl-ids', 'data-fold': key },
    h('summary', { class: 'small muted' }, t('tl.details')),
    h(
      'dl',
      { class: 'facts small' },
      kept.map(([k, v]) => [h('dt', null, k), h('dd', { class: 'mono' }, String(v))]),
    ),
  );
}
