import { lstat, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';

export type Confined = { ok: true; abs: string; rel: string } | { ok: false; why: string };

const inside = (root: string, p: string) => p === root || p.startsWith(root + sep);

/**
 * `.git` in any case and at any depth, as git itself refuses it in a tracked path: on a
 * case-insensitive file system `.GIT/config` is the checkout's config.
 */
const isGitDir = (segment: string) => segment.toLowerCase() === '.git';
const GIT_REFUSED: Confined = { ok: false, why: '".git" is not open to tools' };

/**
 * Resolves a model-given path inside the checkout, or says why not: absolute paths, `..`
 * segments and symlinks that lead out of it are refused, and so is `.git` (the checkout's
 * remote and history are the host's business, issue 4 "Workspace") however it is spelled or
 * reached (issue 31). A path that does not exist yet is checked through its nearest existing
 * parent, so a new file cannot be created through a link either.
 */
export async function confinePath(root: string, given: string): Promise<Confined> {
  const p = given.trim() === '' ? '.' : given.trim();
  if (isAbsolute(p) || /^[A-Za-z]:[\\/]/.test(p))
    return { ok: false, why: `"${given}" is absolute; give a path relative to the checkout` };
  const parts = p.split(/[\\/]+/);
  if (parts.some(isGitDir)) return GIT_REFUSED;
  if (parts.includes('..')) return { ok: false, why: `"${given}" climbs out with ".."` };
  const realRoot = await realpath(root);
  const abs = join(realRoot, p);
  let probe = abs;
  while (!(await lstat(probe).catch(() => undefined)) && dirname(probe) !== probe) probe = dirname(probe);
  // A dangling link does not resolve: writing through it would create its target, wherever that is.
  const real = await realpath(probe).catch(() => undefined);
  if (!real || !inside(realRoot, real))
    return { ok: false, why: `"${given}" leads outside the checkout through a link` };
  if (relative(realRoot, real).split(sep).some(isGitDir)) return GIT_REFUSED;
  return { ok: true, abs, rel: relative(realRoot, abs) || '.' };
}
