const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether `text` @-mentions the bot (CONTRACT "In chat and on GitHub"). Matches GitHub's own
 * rules closely enough: not inside an e-mail address or a longer login, case-insensitive, with or
 * without an App's `[bot]` suffix. Quoted lines (`> …`) don't count: quoting a request is not one.
 * One pass over the whole text (issue 14): splitting into lines and testing each cost ~13 ms on a
 * 65k-newline comment.
 */
export function mentionsBot(text: string, botLogin: string): boolean {
  for (const m of text.matchAll(mentionPattern(botLogin))) {
    const at = m.index + (m[1] ?? '').length;
    if (!quotedLine(text, text.lastIndexOf('\n', at - 1) + 1)) return true;
  }
  return false;
}

/** The mention pattern of the last login asked for: one bot per process, compiled once (issue 18). */
let cached: { login: string; re: RegExp } | undefined;
function mentionPattern(botLogin: string): RegExp {
  if (cached?.login !== botLogin) {
    const name = escapeRegExp(botLogin.replace(/\[bot\]$/i, ''));
    cached = { login: botLogin, re: new RegExp(`(^|[^\\w.@/-])@${name}(\\[bot\\])?(?![\\w-])`, 'gim') };
  }
  // `matchAll` iterates a copy, so the one compiled pattern is never shared mid-match.
  return cached.re;
}

/** Whether the line starting at `start` is a quote: optional blanks, then `>`. */
function quotedLine(text: string, start: number): boolean {
  let i = start;
  while (i < text.length && text[i] !== '\n' && /\s/.test(text[i] as string)) i++;
  return text[i] === '>';
}
