import type { Lang } from './lang.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** A language name as people write it (`zh`, `zh-CN`, `zh_CN.UTF-8`, `en_US`), or undefined. */
export function langFromName(name: string): Lang | undefined {
  const n = name.trim().toLowerCase();
  if (n === 'zh' || /^zh[-_](cn|hans|sg)/.test(n)) return 'zh-CN';
  if (n === 'en' || /^en[-_.]/.test(n)) return 'en';
  return undefined;
}

/** The language of the system locale: `LC_ALL`, else `LC_MESSAGES`, else `LANG` (POSIX order). */
export function localeLang(env: Env): Lang {
  const locale = env.LC_ALL || env.LC_MESSAGES || env.LANG || '';
  return locale.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}
