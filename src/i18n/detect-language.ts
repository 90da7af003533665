import type { Lang } from './lang.ts';

/** CJK Unified Ideographs, Extension A and the compatibility block: the characters of Chinese. */
function isHan(code: number): boolean {
  return (
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0xf900 && code <= 0xfaff)
  );
}

function isLatinLetter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

/**
 * The language a person wrote in (issue 16), by one pass over the text: Chinese when it has Han
 * characters at least as many as Latin words. A word is a whitespace-separated token with Latin
 * letters and no Han; links and mentions don't count, so `修复 https://…/pull/12` stays Chinese and
 * a name like 张三 in an English sentence stays English.
 */
export function languageOfText(text: string): Lang {
  let han = 0;
  let words = 0;
  let tokenHan = 0;
  let tokenLatin = false;
  let tokenStart = 0;
  const endToken = (end: number) => {
    han += tokenHan;
    if (tokenLatin && tokenHan === 0 && !skipped(text, tokenStart, end)) words++;
    tokenHan = 0;
    tokenLatin = false;
  };
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d || code === 0x3000) {
      endToken(i);
      tokenStart = i + 1;
    } else if (isHan(code)) tokenHan++;
    else if (isLatinLetter(code)) tokenLatin = true;
  }
  endToken(text.length);
  return han > 0 && han >= words ? 'zh-CN' : 'en';
}

/** A mention or a link: not a word of the sentence. */
function skipped(text: string, start: number, end: number): boolean {
  if (text.charCodeAt(start) === 0x40) return true;
  const token = text.slice(start, Math.min(end, start + 12));
  return token.startsWith('http://') || token.startsWith('https://');
}
