import { h } from './dom.js';

/**
 * A line diff by longest common subsequence: `[{ op: ' ' | '-' | '+', text }]`, old → new.
 * Prompt texts are a few hundred lines at most, so the quadratic table is fine.
 * @param {string} oldText
 * @param {string} newText
 */
export function diffLines(oldText, newText) {
  const a = oldText === '' ? [] : oldText.split('\n');
  const b = newText === '' ? [] : newText.split('\n');
  const n = a.length;
  const m = b.length;
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  /** @type {{ op: ' ' | '-' | '+', text: string }[]} */
  const out = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      out.push({ op: ' ', text: a[i++] });
      j++;
    } else if (i < n && (j >= m || lcs[i + 1][j] >= lcs[i][j + 1])) out.push({ op: '-', text: a[i++] });
    else out.push({ op: '+', text: b[j++] });
  }
  return out;
}

const CLASS = { ' ': 'same', '-': 'del', '+': 'add', '@': 'hunk' };

/**
 * A coloured diff: removed lines red, added green. Unchanged runs longer than `context * 2` are
 * folded so the change stands out; nothing changed is said in words.
 * @param {{ op: ' ' | '-' | '+', text: string }[]} ops
 * @param {{ label?: string, context?: number }} [opts]
 */
export function diffView(ops, opts = {}) {
  const context = opts.context ?? 3;
  if (!ops.some((o) => o.op !== ' ')) return h('p', { class: 'muted' }, 'No differences.');
  const rows = [];
  let k = 0;
  while (k < ops.length) {
    let end = k;
    while (end < ops.length && ops[end].op === ' ') end++;
    const run = end - k;
    const first = k === 0;
    const last = end === ops.length;
    const keepHead = first ? 0 : context;
    const keepTail = last ? 0 : context;
    if (run > keepHead + keepTail + 1) {
      for (let x = k; x < k + keepHead; x++) rows.push(line(ops[x]));
      rows.push(h('div', { class: 'line fold' }, `⋯ ${run - keepHead - keepTail} unchanged lines`));
      for (let x = end - keepTail; x < end; x++) rows.push(line(ops[x]));
    } else for (let x = k; x < end; x++) rows.push(line(ops[x]));
    while (end < ops.length && ops[end].op !== ' ') rows.push(line(ops[end++]));
    k = end;
  }
  return h('div', { class: 'diff', role: 'group', 'aria-label': opts.label ?? 'differences' }, rows);
}

/** @param {{ op: string, text: string }} o */
const line = (o) =>
  h(
    'div',
    { class: `line ${CLASS[o.op] ?? 'same'}` },
    h('span', { class: 'sign', 'aria-hidden': 'true' }, o.op),
    o.text,
  );

/**
 * The server's unified diff (R-E6 "Default updated") coloured line by line.
 * @param {string} unified
 * @param {string} [label]
 */
export function unifiedView(unified, label) {
  const rows = unified
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith('Index:') && !l.startsWith('\\'))
    .map((l) => {
      if (l.startsWith('---') || l.startsWith('+++')) return h('div', { class: 'line file' }, l);
      const op = l[0] === '@' ? '@' : l[0] === '+' || l[0] === '-' ? l[0] : ' ';
      return h(
        'div',
        { class: `line ${CLASS[op]}` },
        h('span', { class: 'sign', 'aria-hidden': 'true' }, op === '@' ? '' : op),
        op === '@' || op === ' ' ? l.slice(op === '@' ? 0 : 1) : l.slice(1),
      );
    });
  return h('div', { class: 'diff', role: 'group', 'aria-label': label ?? 'differences' }, rows);
}
