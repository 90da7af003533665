import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Ctx } from '../../context.ts';
import { localHostEnv, mirrorRoot } from './mirror.ts';
import { git } from './run-git.ts';

type RefCtx = Pick<Ctx, 'config' | 'keys'>;

/** A ticket's private refs in a mirror: its imported commit and its work-in-progress step. */
const PRIVATE = /^refs\/sy\/(?:tickets|wip)\/(T\d+)$/;

/** The bare mirrors on this machine (`.mirrors/<owner>/<name>.git`), as directories. */
async function mirrorDirs(ctx: RefCtx): Promise<string[]> {
  const { root } = mirrorRoot(ctx);
  const owners = await readdir(root, { withFileTypes: true }).catch(() => []);
  const dirs: string[] = [];
  for (const o of owners) {
    if (!o.isDirectory() || o.name.startsWith('.')) continue;
    const names = await readdir(join(root, o.name), { withFileTypes: true }).catch(() => []);
    for (const n of names)
      if (n.isDirectory() && n.name.endsWith('.git')) dirs.push(join(root, o.name, n.name));
  }
  return dirs;
}

const runIn = (ctx: RefCtx, dir: string, args: string[]) =>
  git({ ...localHostEnv(ctx), GIT_DIR: dir }, dir, args, 120_000);

/**
 * The tickets that have private refs in this machine's mirrors (issue 19): each with the refs
 * and the mirror holding them.
 */
export async function ticketsWithMirrorRefs(
  ctx: RefCtx,
): Promise<Map<string, { mirror: string; ref: string }[]>> {
  const found = new Map<string, { mirror: string; ref: string }[]>();
  for (const mirror of await mirrorDirs(ctx)) {
    if (!(await stat(join(mirror, 'HEAD')).catch(() => undefined))) continue;
    const out = await runIn(ctx, mirror, ['for-each-ref', '--format=%(refname)', 'refs/sy/']);
    for (const ref of out.split('\n')) {
      const id = PRIVATE.exec(ref.trim())?.[1];
      if (id) found.set(id, [...(found.get(id) ?? []), { mirror, ref: ref.trim() }]);
    }
  }
  return found;
}

/**
 * Deletes private refs from their mirrors. Their objects stay (the host's git never runs gc: a
 * prune could race another ticket's fetch into the same mirror).
 */
export async function dropMirrorRefs(ctx: RefCtx, refs: readonly { mirror: string; ref: string }[]) {
  for (const { mirror, ref } of refs) await runIn(ctx, mirror, ['update-ref', '-d', ref]);
}
