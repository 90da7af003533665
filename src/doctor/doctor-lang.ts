import type { Lang } from '../i18n/lang.ts';
import { langFromName, localeLang } from '../i18n/locale.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** The value of `--lang X` or `--lang=X` in a command line, if any. */
function langFlag(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--lang') return argv[i + 1] ?? '';
    if (arg.startsWith('--lang=')) return arg.slice('--lang='.length);
  }
  return undefined;
}

/**
 * The language `npm run doctor` prints in (issue 16): `--lang`, else `DOCTOR_LANG`, else the
 * locale (`LC_ALL` / `LC_MESSAGES` / `LANG` starting with `zh` → zh-CN), else English. A named
 * language the doctor does not have is an error, not a silent fallback.
 */
export function doctorLang(argv: readonly string[], env: Env): { lang: Lang } | { unknown: string } {
  const named = langFlag(argv) ?? (env.DOCTOR_LANG || undefined);
  if (named === undefined) return { lang: localeLang(env) };
  const lang = langFromName(named);
  return lang ? { lang } : { unknown: named };
}
