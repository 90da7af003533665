import { h } from './dom.js';

/**
 * The Markdown the bot writes (status messages, replies, questions) as elements, the way Feishu
 * shows it: headings, paragraphs, **bold**, *italic*, `code`, fenced code, bullet and numbered
 * lists, quotes and links. Built with `h()` from text nodes only — no HTML string is ever parsed,
 * so `<img onerror=…>` in a message stays visible text — and a link keeps its href only for
 * http(s) and mailto addresses; any other scheme (`javascript:`, `data:`) stays text.
 * Every pattern is bounded, so rendering is linear on any input.
 * @param {string} text
 * @returns {HTMLElement}
 */
export function markdown(text) {
  const root = h('div', { class: 'md' });
  const lines = String(text ?? '').split(/\r?\n/);
  // The message's shallowest heading becomes h3, under the page's h2 (issue 49 item 6: no level skipped).
  const top = Math.min(6, ...lines.map((l) => /^\s{0,3}(#{1,6})\s/.exec(l)?.[1]?.length ?? 6));
  /** @type {HTMLElement | null} */
  let list = null;
  /** @type {string[]} */
  let para = [];
  const flush = () => {
    if (para.length) root.appendChild(h('p', null, withBreaks(para)));
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const fence = /^\s{0,3}(```|~~~)/.exec(line);
    if (fence) {
      flush();
      list = null;
      const body = [];
      for (i++; i < lines.length && !(lines[i] ?? '').trimStart().startsWith(fence[1] ?? '```'); i++)
        body.push(lines[i]);
      root.appendChild(h('pre', { class: 'md-code' }, h('code', null, body.join('\n'))));
      continue;
    }
    const heading = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    const bullet = /^\s{0,6}([-*+]|\d{1,9}[.)])\s+(.*)$/.exec(line);
    const quote = /^\s{0,3}>\s?(.*)$/.exec(line);
    if (heading) {
      flush();
      list = null;
      // Message headings sit under the page's own: the top one is h3, deeper ones go no deeper than h6.
      const level = Math.min(6, 3 + (heading[1] ?? '#').length - top);
      root.appendChild(h(`h${level}`, null, inline(heading[2] ?? '')));
    } else if (bullet) {
      flush();
      const tag = /\d/.test(bullet[1] ?? '') ? 'ol' : 'ul';
      if (!list || list.tagName.toLowerCase() !== tag) {
        list = h(tag, null);
        root.appendChild(list);
      }
      list.appendChild(h('li', null, inline(bullet[2] ?? '')));
    } else if (quote) {
      flush();
      list = null;
      root.appendChild(h('blockquote', null, inline(quote[1] ?? '')));
    } else if (!line.trim()) {
      flush();
      list = null;
    } else if (/^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) {
      flush();
      list = null;
      root.appendChild(h('hr', null));
    } else {
      list = null;
      para.push(line);
    }
  }
  flush();
  return root;
}

/** A paragraph's lines, a line break between each. @param {string[]} lines */
function withBreaks(lines) {
  return lines.flatMap((l, i) => (i ? [h('br', null), ...inline(l)] : inline(l)));
}

/** Schemes a link may keep; anything else is shown as text. */
const SAFE_HREF = /^(https?:\/\/|mailto:)/i;

/**
 * Inline Markdown: code spans first (nothing inside them is Markdown), then links, bare
 * addresses, bold and italic. Returns nodes and strings for `h()`.
 */
const INLINE =
  /`([^`\n]{1,2000})`|\[([^\]\n]{1,300})\]\(([^\s)]{1,2000})\)|(https?:\/\/[^\s)\]<>]{1,2000})|\*\*([^*\n]{1,2000})\*\*|__([^_\n]{1,2000})__|\*([^*\s][^*\n]{0,2000})\*|(?<![\w])_([^_\s][^_\n]{0,2000})_(?![\w])/g;

/** @param {string} text @returns {unknown[]} */
export function inline(text) {
  const out = [];
  let at = 0;
  for (const m of text.matchAll(INLINE)) {
    const index = m.index ?? 0;
    if (index > at) out.push(text.slice(at, index));
    at = index + m[0].length;
    if (m[1] !== undefined) out.push(h('code', null, m[1]));
    else if (m[2] !== undefined) out.push(link(m[2], m[3] ?? ''));
    else if (m[4] !== undefined) out.push(link(m[4], m[4]));
    else if (m[5] !== undefined || m[6] !== undefined)
      out.push(h('strong', null, inline(m[5] ?? m[6] ?? '')));
    else out.push(h('em', null, inline(m[7] ?? m[8] ?? '')));
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

/** A link that opens in a new tab without referrer or opener; an unsafe target stays text. */
function link(/** @type {string} */ label, /** @type {string} */ href) {
  if (!SAFE_HREF.test(href)) return label === href ? href : `${label} (${href})`;
  return h('a', { href, target: '_blank', rel: 'noopener noreferrer' }, label);
}
