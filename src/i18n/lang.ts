/** The languages the host writes in (issue 16). `en` is the fallback. */
export const LANGS = ['en', 'zh-CN'] as const;
export type Lang = (typeof LANGS)[number];

export const DEFAULT_LANG: Lang = 'en';

export const isLang = (v: unknown): v is Lang =>
  typeof v === 'string' && (LANGS as readonly string[]).includes(v);

/** Feishu's locale key for a language (post content, card `i18n_content`, `config.locales`). */
export const FEISHU_LOCALE: Record<Lang, 'en_us' | 'zh_cn'> = { en: 'en_us', 'zh-CN': 'zh_cn' };

/** How a list of ticket ids is joined: punctuation, not words. */
export const LIST_SEPARATOR: Record<Lang, string> = { en: ', ', 'zh-CN': '、' };

/** How clauses of one line are joined: punctuation, not words. */
export const CLAUSE_SEPARATOR: Record<Lang, string> = { en: '; ', 'zh-CN': '；' };
