import { h } from '../dom.js';
import { t } from '../i18n.js';
import { diffLines, diffView } from '../line-diff.js';

/**
 * What differs between two prompt configurations (`{ team, overrides, skills }`): one entry per
 * team paragraph, override and skill that is not the same in both, old → new.
 * @param {any} a
 * @param {any} b
 * @returns {{ what: string, before: string, after: string }[]}
 */
export function compareConfigs(a, b) {
  const out = [];
  const team = new Set([...Object.keys(a?.team ?? {}), ...Object.keys(b?.team ?? {})]);
  for (const field of [...team].sort()) {
    const before = a?.team?.[field] ?? '';
    const after = b?.team?.[field] ?? '';
    if (before !== after) out.push({ what: t('diff.team', { field }), before, after });
  }
  const keys = new Set([...Object.keys(a?.overrides ?? {}), ...Object.keys(b?.overrides ?? {})]);
  for (const key of [...keys].sort()) {
    const before = a?.overrides?.[key]?.text ?? '';
    const after = b?.overrides?.[key]?.text ?? '';
    const what = !before ? t('diff.added', { key }) : !after ? t('diff.removed', { key }) : key;
    if (before !== after) out.push({ what, before, after });
  }
  const skillText = (/** @type {any} */ s) =>
    s ? `${s.description ? `${s.description}\n\n` : ''}${s.text}` : '';
  const byName = (/** @type {any} */ c) =>
    new Map((c?.skills ?? []).map((/** @type {any} */ s) => [s.name, s]));
  const sa = byName(a);
  const sb = byName(b);
  for (const name of [...new Set([...sa.keys(), ...sb.keys()])].sort()) {
    const before = skillText(sa.get(name));
    const after = skillText(sb.get(name));
    if (before !== after) out.push({ what: t('diff.skill', { name }), before, after });
  }
  return out;
}

/** Short names of what changed, for the versions list. @param {any} a @param {any} b */
export const changedNames = (a, b) => compareConfigs(a, b).map((c) => c.what.replace(/ \(.*\)$/, ''));

/**
 * Every change between two configurations, each as a coloured line diff.
 * @param {any} a
 * @param {any} b
 * @param {string} emptyText
 */
export function configDiffView(a, b, emptyText = t('diff.same')) {
  const changes = compareConfigs(a, b);
  if (!changes.length) return h('p', { class: 'muted' }, emptyText);
  return h(
    'div',
    { class: 'config-diff' },
    changes.map((c) =>
      h(
        'section',
        { class: 'change' },
        h('h4', null, c.what),
        diffView(diffLines(c.before, c.after), { label: c.what }),
      ),
    ),
  );
}
