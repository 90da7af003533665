import { type CatalogName, catalogFile, catalogText } from './catalog-file.ts';
import type { HostTextKey } from './host-keys.ts';
import type { Lang } from './lang.ts';

const HOST: CatalogName = 'host';

/** The catalog file of a language: `prompts/host/<lang>.md` (copied next to the build by `npm run build`). */
export const catalogPath = (lang: Lang): string => catalogFile(HOST, lang);

/**
 * A host text in `lang` with its placeholders filled (issue 16). A key missing from a catalog
 * falls back to English, which a test keeps from happening.
 */
export function hostText(
  lang: Lang,
  key: HostTextKey,
  vars: Readonly<Record<string, string | number>> = {},
): string {
  return catalogText(HOST, lang, key, vars);
}
