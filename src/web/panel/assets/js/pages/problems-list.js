import { h } from '../dom.js';

/**
 * Validation problems, whole and untruncated (R-F4), each with its key and code.
 * @param {{ key: string, code: string, message: string }[]} problems
 */
export function problemsList(problems) {
  if (!problems.length) return null;
  return h(
    'ul',
    { class: 'problems', role: 'alert' },
    problems.map((p) =>
      h(
        'li',
        { 'data-key': p.key },
        h('code', null, p.key),
        ' ',
        h('span', { class: 'code' }, p.code),
        ' — ',
        p.message,
      ),
    ),
  );
}
