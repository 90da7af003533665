/**
 * The panel's words (issue 16): one Markdown catalog per language in `/panel/assets/i18n/`, the
 * same format as the host's (`## key`, then the text; `{name}` placeholders). The language is the
 * one chosen with the switch (kept in localStorage), else the browser's, else English.
 */

export const LANGS = /** @type {const} */ (['en', 'zh-CN']);
const STORE_KEY = 'switchyard.lang';

/** @type {Map<string, string>} */
let texts = new Map();
/** @type {Map<string, string>} */
let fallback = new Map();
let lang = 'en';

/** @returns {string} */
export const currentLang = () => lang;

/** The chosen language, else the browser's. @returns {string} */
export function preferredLang() {
  const stored = localStorage.getItem(STORE_KEY);
  if (stored && /** @type {readonly string[]} */ (LANGS).includes(stored)) return stored;
  return navigator.language.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}

/** A catalog as key → text: each `## key` heading opens a text that runs to the next. @param {string} md */
export function parseCatalog(md) {
  const out = new Map();
  let key = '';
  /** @type {string[]} */
  let body = [];
  const close = () => {
    if (key) out.set(key, body.join('\n').trim());
  };
  for (const line of md.split('\n')) {
    if (line.startsWith('## ')) {
      close();
      key = line.slice(3).trim();
      body = [];
    } else if (key) body.push(line);
  }
  close();
  return out;
}

/** @param {string} l */
async function fetchCatalog(l) {
  const res = await fetch(`/panel/assets/i18n/${l}.md`);
  if (!res.ok) throw new Error(`the ${l} catalog did not load (${res.status})`);
  return parseCatalog(await res.text());
}

/** The language asked for last: while its catalog loads, `currentLang` is still the one before. */
let asked = { lang: 'en' };
/** @returns {string} */
export const askedLang = () => asked.lang;

/**
 * Loads a language (and English beside it, for a key a catalog lacks) and remembers the choice.
 * Only the choice made last is applied: `false` when a later one came while this one loaded
 * (中文 pressed, then English before the Chinese catalog came), so the later one wins.
 * @param {string} l
 */
export async function useLang(l, remember = false) {
  const mine = { lang: l };
  asked = mine;
  const [chosen, en] = await Promise.all([fetchCatalog(l), l === 'en' ? null : fetchCatalog('en')]);
  if (asked !== mine) return false;
  texts = chosen;
  fallback = en ?? chosen;
  lang = l;
  if (remember) localStorage.setItem(STORE_KEY, l);
  document.documentElement.lang = l;
  translateStatic(document);
  return true;
}

/**
 * A text with its placeholders filled; an unknown key shows as itself, so a missing text is seen.
 * @param {string} key
 * @param {Record<string, unknown>} [vars]
 */
export function t(key, vars = {}) {
  const text = texts.get(key) ?? fallback.get(key) ?? key;
  return text.replace(/\{([a-zA-Z][a-zA-Z0-9]*)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
}

/** A text, or `otherwise` when no catalog has the key (a state the panel has no word for). @param {string} key @param {string} otherwise */
export const tOr = (key, otherwise) => (texts.has(key) || fallback.has(key) ? t(key) : otherwise);

/**
 * The page's fixed markup names its words by key: `data-i18n` (text), `data-i18n-label`
 * (`aria-label`), `data-i18n-title` (`title`). @param {ParentNode} root
 */
export function translateStatic(root) {
  for (const el of root.querySelectorAll('[data-i18n]'))
    if (el instanceof HTMLElement) el.textContent = t(el.dataset.i18n ?? '');
  for (const el of root.querySelectorAll('[data-i18n-label]'))
    if (el instanceof HTMLElement) el.setAttribute('aria-label', t(el.dataset.i18nLabel ?? ''));
}
