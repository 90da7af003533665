/**
 * Untrusted text is cleaned of what a person reading it would not see, before a model, the
 * reference extractor or the mention check reads it (R-E10: external text is data; issue 8
 * "hidden markup is stripped"). The rule: keep everything that renders, drop what is hidden by
 * construction, so what people see on GitHub or Feishu is what the bot reads.
 *
 * - HTML comments `<!-- … -->` (GitHub hides them; an unterminated one hides the rest).
 * - Zero-width and invisible format characters (U+200B–U+200D, U+2060–U+2064, U+FEFF, U+00AD,
 *   U+180E, U+034F) and Unicode tag characters (U+E0000–U+E007F, "ASCII smuggling").
 * - Bidirectional controls (U+200E/F, U+061C, U+202A–U+202E, U+2066–U+2069), which reorder what
 *   people see ("Trojan Source").
 * - C0/C1 control characters other than tab and newlines.
 *
 * `<details>` bodies are kept: a reader can open them, so they are visible text. Idempotent: what
 * taking one thing out joins into another (`<!<!-- x -->-->`, `<!\u200B-- x -->`, a surrogate
 * pair around a comment) is taken out too, passes repeating until nothing changes.
 */
export function sanitizeUntrusted(text: string): string {
  let out = text.replace(/\r\n?/g, '\n');
  for (;;) {
    const next = withoutComments(out.replace(INVISIBLE, ''));
    if (next === out) return out;
    out = next;
  }
}

const OPEN = '<!--';
const CLOSE = '-->';

/**
 * HTML comments out in one pass, an unterminated one taking the rest — and a comment that only
 * opens once another is gone, where the text kept before it ends in `<`, `<!` or `<!-` and the
 * text after it goes on with the rest of `<!--`.
 */
function withoutComments(text: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const open = text.indexOf(OPEN, at);
    if (open === -1) return out + text.slice(at);
    out += text.slice(at, open);
    let end = text.indexOf(CLOSE, open + OPEN.length);
    for (;;) {
      if (end === -1) return out;
      at = end + CLOSE.length;
      const kept = openerPrefix(out);
      if (!kept || !text.startsWith(OPEN.slice(kept), at)) break;
      out = out.slice(0, -kept);
      end = text.indexOf(CLOSE, at + OPEN.length - kept);
    }
  }
}

/** How many characters at the end of `s` begin a comment opener (`<`, `<!`, `<!-`), or 0. */
function openerPrefix(s: string): number {
  for (const n of [3, 2, 1]) if (s.endsWith(OPEN.slice(0, n))) return n;
  return 0;
}

/** Whole runs at once (`(?:…)+`): one replacement per run, not per character (issue 14). */
const INVISIBLE = new RegExp(
  `(?:${[
    '[\\u200B-\\u200F\\u2060-\\u2064\\uFEFF\\u00AD\\u180E\\u034F\\u061C]',
    '[\\u202A-\\u202E\\u2066-\\u2069]',
    '[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]',
    '\\uDB40[\\uDC00-\\uDC7F]',
  ].join('|')})+`,
  'g',
);
