import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { HostTextKey } from './host-keys.ts';
import { DEFAULT_LANG, type Lang } from './lang.ts';
import { fillPlaceholders, parseCatalog } from './parse-catalog.ts';

const cache = new Map<Lang, Map<string, string>>();

/** The catalog file of a language: `prompts/host/<lang>.md` (copied next to the build by `npm run build`). */
export function catalogPath(lang: Lang): string {
  return fileURLToPath(new URL(`../../prompts/host/${lang}.md`, import.meta.url));
}

/** A language's texts, read once. A catalog with problems throws: a hole would send a key. */
export function catalogOf(lang: Lang): Map<string, string> {
  const known = cache.get(lang);
  if (known) return known;
  const { texts, problems } = parseCatalog(readFileSync(catalogPath(lang), 'utf8'));
  if (problems.length) throw new Error(`${catalogPath(lang)}: ${problems.join('; ')}`);
  cache.set(lang, texts);
  return texts;
}

/**
 * A host text in `lang` with its placeholders filled (issue 16). A key missing from a catalog
 * falls back to English, which a test keeps from happening.
 */
export function hostText(
  lang: Lang,
  key: HostTextKey,
  vars: Readonly<Record<string, string | number>> = {},
): string {
  const text = catalogOf(lang).get(key) ?? catalogOf(DEFAULT_LANG).get(key);
  if (text === undefined) throw new Error(`host text ${key} is in no catalog`);
  return fillPlaceholders(text, vars);
}
