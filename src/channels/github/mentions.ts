const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether `text` @-mentions the bot (CONTRACT "In chat and on GitHub"). Matches GitHub's own
 * rules closely enough: not inside an e-mail address or a longer login, case-insensitive, with or
 * without an App's `[bot]` suffix. Quoted lines (`> …`) don't count: quoting a request is not one.
 */
export function mentionsBot(text: string, botLogin: string): boolean {
  const name = escapeRegExp(botLogin.replace(/\[bot\]$/i, ''));
  const re = new RegExp(`(^|[^\\w.@/-])@${name}(\\[bot\\])?(?![\\w-])`, 'i');
  return text.split('\n').some((line) => !/^\s*>/.test(line) && re.test(line));
}
