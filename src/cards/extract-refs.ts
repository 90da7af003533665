import type { Ref } from './card.ts';

/** Hosts whose URLs are read as GitHub objects; GitHub Enterprise hosts can be added per call. */
const GITHUB_HOSTS = ['github.com', 'www.github.com'];

/** URLs longer than browsers keep are not references; the bound also keeps each match linear. */
const URL_PATTERN = /https?:\/\/[^\s<>"'`，。、；）】》]{1,2048}/g;
/** Punctuation that ends a sentence rather than a URL (`see https://…/pull/3.`). */
const TRAILING = new Set(').,;:!?\'"]}>*_~');
/**
 * Issue 14 "input costs nothing": references are read from the first this-many characters only,
 * and at most `MAX_REFS` of them, so a 65 KB comment costs what a short one does.
 */
export const REFS_TEXT_CAP = 16_000;
export const MAX_REFS = 50;
/** Matches of one pattern looked at: `#1 ` written 5,000 times is one reference, not 5,000 steps. */
const MAX_MATCHES = 200;

function* firstMatches(text: string, pattern: RegExp): Generator<RegExpExecArray> {
  let n = 0;
  for (const m of text.matchAll(pattern)) {
    if (++n > MAX_MATCHES) return;
    yield m;
  }
}
const REPO = String.raw`[A-Za-z0-9][\w.-]*\/[\w.-]*[\w-]`;
const QUALIFIED = new RegExp(String.raw`(?<![\w.\/-])(${REPO})#(\d+)\b`, 'g');
const BARE = /(?<![\w/#&])#(\d+)\b/g;

export interface ExtractRefsOptions {
  /** Extra hosts that serve GitHub (GHES), e.g. `git.example.com`. */
  githubHosts?: string[];
}

/**
 * The explicit references a piece of chat or comment text carries (R-A3, R-B2): GitHub pull
 * request, issue, commit and branch URLs, `owner/name#123`, `#123` when a default repository is
 * known, and any other URL as a plain `url` ref. Commit SHAs count only inside commit URLs, so a
 * hex-looking word is never taken for a commit. `#123` and `owner/name#123` become `issue` refs:
 * GitHub numbers issues and pull requests in one sequence, so routing matches both types on
 * (repo, number). Results are de-duplicated, in order of appearance.
 */
export function extractTextRefs(whole: string, defaultRepo?: string, opts: ExtractRefsOptions = {}): Ref[] {
  const text = whole.slice(0, REFS_TEXT_CAP);
  // Every reference is a URL (`http…`) or carries a `#`: most messages have neither (issue 18).
  if (!text.includes('#') && !text.includes('http')) return [];
  const hosts = new Set([...GITHUB_HOSTS, ...(opts.githubHosts ?? []).map((h) => h.toLowerCase())]);
  const refs: Ref[] = [];
  const seen = new Set<string>();
  const add = (ref: Ref) => {
    const key = JSON.stringify(ref);
    if (seen.has(key) || refs.length >= MAX_REFS) return;
    seen.add(key);
    refs.push(ref);
  };
  for (const m of firstMatches(text, URL_PATTERN)) {
    for (const ref of refsOfUrl(trimTrailing(m[0]), hosts)) add(ref);
  }
  // URLs are blanked out first so `https://x/o/r#12` is not read again as shorthand.
  const rest = text.replace(URL_PATTERN, (u) => ' '.repeat(u.length));
  for (const m of firstMatches(rest, QUALIFIED)) {
    const number = Number(m[2]);
    if (m[1] && number > 0) add({ type: 'issue', repo: m[1], number });
  }
  if (defaultRepo) {
    for (const m of firstMatches(rest, BARE)) {
      const number = Number(m[1]);
      if (number > 0) add({ type: 'issue', repo: defaultRepo, number });
    }
  }
  return refs;
}

/**
 * The URL without sentence punctuation at its end, by a backwards scan: the regex `[…]+$` it
 * replaces retried from every position of a long punctuation run (65,000 `)` took ~2 s).
 */
function trimTrailing(url: string): string {
  let end = url.length;
  while (end > 0 && TRAILING.has(url.charAt(end - 1))) end--;
  return url.slice(0, end);
}

/** The refs one URL stands for: GitHub objects when it names one, else the URL itself. */
function refsOfUrl(raw: string, githubHosts: Set<string>): Ref[] {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return [];
  }
  if (!githubHosts.has(url.hostname.toLowerCase())) return [{ type: 'url', url: raw }];
  const [owner, name, kind, id, sub, subId] = url.pathname.split('/').filter(Boolean);
  if (!owner || !name) return [{ type: 'url', url: raw }];
  const repo = `${owner}/${name.replace(/\.git$/, '')}`;
  const number = Number(id);
  const refs: Ref[] = [];
  if (kind === 'pull' && Number.isInteger(number) && number > 0) {
    refs.push({ type: 'pr', repo, number });
    if ((sub === 'commits' || sub === 'commit') && subId && isSha(subId))
      refs.push({ type: 'commit', sha: subId.toLowerCase() });
  } else if (kind === 'issues' && Number.isInteger(number) && number > 0) {
    refs.push({ type: 'issue', repo, number });
  } else if ((kind === 'commit' || kind === 'commits') && id && isSha(id)) {
    refs.push({ type: 'commit', sha: id.toLowerCase() });
  } else if (kind === 'tree' && id) {
    const branch = safeDecode(url.pathname.split('/tree/')[1] ?? id);
    if (branch) refs.push({ type: 'branch', repo, name: branch });
  }
  return refs.length ? refs : [{ type: 'url', url: raw }];
}

const isSha = (s: string): boolean => /^[0-9a-fA-F]{7,40}$/.test(s);

function safeDecode(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}
