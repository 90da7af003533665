import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEFAULT_LANG, type Lang } from './lang.ts';
import { fillPlaceholders, parseCatalog } from './parse-catalog.ts';

/**
 * The Markdown catalogs of built-in texts (issue 16), one folder under `prompts/` each with one
 * file per language: `host` (what the bot writes in chats), `doctor` (`npm run doctor`'s findings).
 * `npm run build` copies `prompts/` next to the build.
 */
export type CatalogName = 'host' | 'doctor';

const cache = new Map<string, Map<string, string>>();

/** The catalog file of a language: `prompts/<name>/<lang>.md`. */
export function catalogFile(name: CatalogName, lang: Lang): string {
  return fileURLToPath(new URL(`../../prompts/${name}/${lang}.md`, import.meta.url));
}

/** A language's texts, read once. A catalog with problems throws: a hole would print a key. */
export function catalogTexts(name: CatalogName, lang: Lang): Map<string, string> {
  const id = `${name}/${lang}`;
  const known = cache.get(id);
  if (known) return known;
  const file = catalogFile(name, lang);
  const { texts, problems } = parseCatalog(readFileSync(file, 'utf8'));
  if (problems.length) throw new Error(`${file}: ${problems.join('; ')}`);
  cache.set(id, texts);
  return texts;
}

/**
 * A catalog text in `lang` with its placeholders filled. A key missing from a language falls back
 * to English, which the catalog tests keep from happening.
 */
export function catalogText(
  name: CatalogName,
  lang: Lang,
  key: string,
  vars: Readonly<Record<string, string | number>> = {},
): string {
  const text = catalogTexts(name, lang).get(key) ?? catalogTexts(name, DEFAULT_LANG).get(key);
  if (text === undefined) throw new Error(`${name} text ${key} is in no catalog`);
  return fillPlaceholders(text, vars);
}
