import { lstat, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';

export type Confined = { ok: true; abs: string; rel: string } | { ok: false; why: string };

const inside = (root: string, p: string) => p === root || p.startsWith(root + sep);

/**
 * Resolves a model-given path inside the checkout, or says why not: absolute paths, `..`
 * segments and symlinks that lead out of it are refused, and so is `.git` (the checkout's
 * remote and history are the host's business, issue 4 "Workspace"). A path that does not exist
 * yet is checked through its nearest existing parent, so a new file cannot be created through a
 * link either.
 */
export async function confinePath(root: string, given: string): Promise<Confined> {
  const p = given.trim() === '' ? '.' : given.trim();
  if (isAbsolute(p) || /^[A-Za-z]:[\\/]/.test(p))
    return { ok: false, why: `"${given}" is absolute; give a path relative to the checkout` };
  const parts = p.split(/[\\/]+/);
  if (parts.includes('..')) return { ok: false, why: `"${given}" climbs out with ".."` };
  if (parts[0] === '.git' || (parts[0] === '.' && parts[1] === '.git'))
    return { ok: false, why: '".git" is not open to tools' };
  const realRoot = await realpath(root);
  const abs = join(realRoot, p);
  let probe = abs;
  while (!(await lstat(probe).catch(() => undefined)) && dirname(probe) !== probe) probe = dirname(probe);
  // A dangling link does not resolve: writing through it would create its target, wherever that is.
  const real = await realpath(probe).catch(() => undefined);
  if (!real || !inside(realRoot, real))
    return { ok: false, why: `"${given}" leads outside the checkout through a link` };
  return { ok: true, abs, rel: relative(realRoot, abs) || '.' };
}
