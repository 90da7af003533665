/**
 * What `close_pr`'s `instead` names (R-C8, "a person's branch or PR already holds the change"):
 * another PR of the ticket's repository, or a branch of it. Parsing only; the tool checks on GitHub
 * that the PR or branch exists and is a person's.
 */
export type YieldTarget = { kind: 'pr'; number: number } | { kind: 'branch'; name: string };

/** The bot's own branches (`branchName`): never a person's work to yield to. */
export const BOT_BRANCH_PREFIX = 'sy/';

/** `owner/name#12`, `#12`, `12` or a PR URL → its number in `repo`, or undefined. */
export function prNumberIn(repo: string, ref: string): number | undefined {
  const url = /github\.com\/([^/]+\/[^/]+)\/pull\/(\d+)/i.exec(ref);
  const short = /^(?:([\w.-]+\/[\w.-]+))?#?(\d+)$/.exec(ref.trim());
  const [named, n] = url ? [url[1], url[2]] : short ? [short[1], short[2]] : [undefined, undefined];
  if (named && named.toLowerCase() !== repo.toLowerCase()) return undefined;
  return n ? Number(n) : undefined;
}

/** A name git accepts for a branch (`git check-ref-format --branch`, in short). */
function isBranchName(name: string): boolean {
  return (
    /^[\w.\-/]+$/.test(name) &&
    !name.startsWith('-') &&
    !name.startsWith('/') &&
    !name.endsWith('/') &&
    !name.endsWith('.') &&
    !name.endsWith('.lock') &&
    !name.includes('..') &&
    !name.includes('//') &&
    name.length <= 200
  );
}

/** A PR of `repo`, or a branch of it (`ada/fix`, or a `github.com/<repo>/tree/<branch>` URL). */
export function yieldTargetIn(repo: string, ref: string): YieldTarget | undefined {
  const number = prNumberIn(repo, ref);
  if (number) return { kind: 'pr', number };
  const text = ref.trim();
  const tree = /^https?:\/\/github\.com\/([^/]+\/[^/]+)\/tree\/(.+)$/i.exec(text);
  if (tree && tree[1]?.toLowerCase() !== repo.toLowerCase()) return undefined;
  const name = tree ? (tree[2] as string) : text;
  if (/^https?:|^#|:/.test(name) || !isBranchName(name)) return undefined;
  return { kind: 'branch', name };
}
