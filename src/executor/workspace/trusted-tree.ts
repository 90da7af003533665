import type { Ctx } from '../../context.ts';
import { fetchIntoMirror, mirrorDir, mirrorLocal } from './mirror.ts';
import { isCommitId } from './run-git.ts';
import type { Workspace } from './workspace.ts';

/** One entry of a committed tree: a regular file (`100644`/`100755`) is the only kind read. */
export interface TreeEntry {
  name: string;
  mode: string;
  type: string;
  object: string;
  size: number;
}

const CACHE_MAX = 500;

/**
 * What a mirror answered about objects named by their id — a blob's text, a commit's folder
 * listing, that a commit exists — kept by `mirror:id…`: what an id names never changes, so each
 * is asked of git once (every turn reads AGENTS.md and the project layer's folders again).
 */
function boundedCache<T>() {
  const entries = new Map<string, T>();
  return {
    get: (key: string) => entries.get(key),
    remember(key: string, value: T): T {
      if (entries.size >= CACHE_MAX) entries.delete(entries.keys().next().value ?? '');
      entries.set(key, value);
      return value;
    },
  };
}

const blobs = boundedCache<string | null>();
const listings = boundedCache<TreeEntry[]>();
/** Commits (by `mirror:id`) found in their mirror, whose objects the host's git never prunes. */
const presentCommits = boundedCache<true>();

/**
 * The commit trusted content is read from (issue 13 "Untrusted checkout content", issue 15): the
 * base branch as the host's mirror fetched it when the checkout was made — never the checkout's
 * working tree or refs, which the executor's commands and a fork's PR can change. A mirror that
 * lacks it (another machine, R-H7) fetches the base branch first. Undefined when it cannot be had.
 */
export async function trustedCommit(ctx: Ctx, ws: Workspace): Promise<string | undefined> {
  const want = ws.baseSha ?? `refs/heads/${ws.base}`;
  // A commit id found once is there for good; a branch name is asked each time (the branch moves).
  const key = ws.baseSha && isCommitId(ws.baseSha) ? `${mirrorDir(ctx, ws.repo)}:${ws.baseSha}` : undefined;
  if (key && presentCommits.get(key)) return ws.baseSha;
  const has = async () => {
    const sha = await mirrorLocal(ctx, ws.repo, [
      'rev-parse',
      '--verify',
      '--quiet',
      `${want}^{commit}`,
    ]).catch(() => '');
    if (key && sha) presentCommits.remember(key, true);
    return sha;
  };
  const found = await has();
  if (found) return found;
  await fetchIntoMirror(ctx, ws, [`+refs/heads/${ws.base}:refs/heads/${ws.base}`]).catch((err: unknown) =>
    ctx.log.warn({ repo: ws.repo, err: String(err) }, 'trusted tree: base branch not fetched'),
  );
  return (await has()) || undefined;
}

/** The entries of `folder` (no trailing slash; `''` for the root) in `commit`'s tree. */
export async function listTree(
  ctx: Ctx,
  ws: Workspace,
  commit: string,
  folder: string,
): Promise<TreeEntry[]> {
  const spec = folder ? `${commit}:${folder}` : commit;
  const mirror = mirrorDir(ctx, ws.repo);
  const key = isCommitId(commit) ? `${mirror}:${spec}` : undefined;
  const known = key && listings.get(key);
  if (known) return known;
  // A folder the commit lacks is as lasting as its files, once the commit itself is known here.
  const absent = (err: unknown) =>
    key && presentCommits.get(`${mirror}:${commit}`) && /Not a valid object name/.test(String(err))
      ? ''
      : undefined;
  const out = await mirrorLocal(ctx, ws.repo, ['ls-tree', '-z', '--long', spec]).catch(absent);
  const entries = (out ?? '')
    .split('\0')
    .filter(Boolean)
    .map((line) => {
      const [meta = '', name = ''] = line.split('\t');
      const [mode = '', type = '', object = '', size = ''] = meta.trim().split(/\s+/);
      return { name, mode, type, object, size: Number(size) || 0 };
    });
  // A listing git could not give for another reason is asked again next time.
  return key && out !== undefined ? listings.remember(key, entries) : entries;
}

/** A regular file's text from a committed tree, or why not (a link, a folder, too large). */
export async function readTreeFile(
  ctx: Ctx,
  ws: Workspace,
  entry: TreeEntry,
  maxBytes: number,
): Promise<{ ok: true; text: string } | { ok: false; why: string }> {
  if (entry.type !== 'blob' || !/^1006[0-7]{2}$/.test(entry.mode))
    return { ok: false, why: 'is not a regular file (links are not followed)' };
  if (entry.size > maxBytes) return { ok: false, why: `is over ${maxBytes} bytes` };
  const key = `${mirrorDir(ctx, ws.repo)}:${entry.object}`;
  const text =
    blobs.get(key) ??
    blobs.remember(
      key,
      await mirrorLocal(ctx, ws.repo, ['cat-file', 'blob', entry.object]).catch(() => null),
    );
  return text === null ? { ok: false, why: 'cannot be read' } : { ok: true, text };
}

/**
 * `path` (at the root of the repository) as committed on the trusted commit, or null when the
 * commit or the file is missing or is no regular file.
 */
export async function readTrustedFile(ctx: Ctx, ws: Workspace, path: string, maxBytes: number) {
  const commit = await trustedCommit(ctx, ws);
  if (!commit) return null;
  const entry = (await listTree(ctx, ws, commit, '')).find((e) => e.name === path);
  if (!entry) return null;
  const got = await readTreeFile(ctx, ws, entry, maxBytes);
  return got.ok ? got.text : null;
}
