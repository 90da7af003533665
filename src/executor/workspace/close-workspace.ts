import type { Dirent } from 'node:fs';
import { chmod, lstat, readdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Ctx } from '../../context.ts';
import { commandOwner } from '../sandbox/probe-sandbox.ts';
import { openPassage } from '../sandbox/sandbox-user.ts';
import { mkdirPrivate, PRIVATE_MODE } from './private-dir.ts';
import { workspacePaths } from './workspace.ts';

type CloseCtx = Pick<Ctx, 'config' | 'keys' | 'log'>;

const folders = async (dir: string): Promise<Dirent[]> => {
  const entries: Dirent[] = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isDirectory());
};

/**
 * Whether `WORKSPACE_DIR` is a folder the bot may close: not a shared one like `/tmp` (sticky) or
 * a file system's root, where 0700 would lock every other user and service out. Everything the
 * bot keeps is in a deployment folder below it, closed either way.
 */
const ownTop = (dir: string, mode: number) => (mode & 0o1000) === 0 && dirname(dir) !== dir;

/**
 * The folders the workspace code keeps under `WORKSPACE_DIR` (issue 45), itself included unless
 * shared (`ownTop`): this deployment's folder (`<KEY_PREFIX>`), the checkouts and `.home`,
 * `.mirrors` in it, the command homes, and the mirrors with their owners' folders. Never other
 * folders of `WORKSPACE_DIR`, which may not be the bot's, nor what is inside a checkout or a
 * mirror: the closed folders above keep everyone else out of those.
 */
export async function workspaceFolders(workspaceDir: string, prefix: string): Promise<string[]> {
  const top = resolve(workspaceDir);
  const st = await lstat(top).catch(() => undefined);
  const found = st && ownTop(top, st.mode) ? [top] : [];
  const root = resolve(top, prefix);
  if (!(await lstat(root).catch(() => undefined))?.isDirectory()) return found;
  found.push(root);
  for (const e of await folders(root)) {
    const dir = join(root, e.name);
    found.push(dir);
    if (e.name !== '.home' && e.name !== '.mirrors') continue;
    for (const inner of await folders(dir)) {
      found.push(join(dir, inner.name));
      if (e.name === '.mirrors' && !inner.name.startsWith('.'))
        for (const mirror of await folders(join(dir, inner.name)))
          found.push(join(dir, inner.name, mirror.name));
    }
  }
  return found;
}

/**
 * Issue 45: where commands run as a uid of their own, bwrap (already that uid) walks to the
 * checkout through `WORKSPACE_DIR` and the deployment's folder, so those two let others through
 * without listing them (0711); a checkout is that uid's and closed (0700), mirrors and homes stay
 * the bot's and closed.
 */
export const PASSAGE_MODE = 0o711;

/** The folders that may be `PASSAGE_MODE` when `passage` is set: `WORKSPACE_DIR` and the deployment's. */
const passageFolders = (workspaceDir: string, prefix: string) =>
  new Set([resolve(workspaceDir), resolve(workspaceDir, prefix)]);

/**
 * Those of `workspaceFolders` that group or other users may enter or read, with their modes;
 * with `passage`, entering (not reading) `WORKSPACE_DIR` and the deployment's folder is allowed.
 */
export async function openWorkspaceFolders(
  workspaceDir: string,
  prefix: string,
  passage = false,
): Promise<{ dir: string; mode: number }[]> {
  const open: { dir: string; mode: number }[] = [];
  const through = passage ? passageFolders(workspaceDir, prefix) : new Set<string>();
  for (const dir of await workspaceFolders(workspaceDir, prefix)) {
    const st = await lstat(dir).catch(() => undefined);
    const allowed = through.has(dir) ? 0o011 : 0;
    if (st?.isDirectory() && (st.mode & 0o077 & ~allowed) !== 0) open.push({ dir, mode: st.mode & 0o7777 });
  }
  return open;
}

/**
 * Closes the workspace to other users at start-up (issue 45): checkouts and mirrors hold private
 * repositories and whatever a command left, and folders an older release made 0755 let any local
 * user read them and run a program a command left there. New folders are made 0700
 * (`mkdirPrivate`); these are the ones already there. Returns the folders changed.
 */
export async function closeWorkspace(ctx: CloseCtx): Promise<string[]> {
  const { root } = workspacePaths(ctx, '');
  await mkdirPrivate(root);
  const passage = Boolean(await commandOwner(ctx.config));
  const through = passage ? passageFolders(ctx.config.WORKSPACE_DIR, ctx.keys.prefix) : new Set<string>();
  const fixed: string[] = [];
  for (const { dir } of await openWorkspaceFolders(ctx.config.WORKSPACE_DIR, ctx.keys.prefix, passage)) {
    try {
      await chmod(dir, through.has(dir) ? PASSAGE_MODE : PRIVATE_MODE);
      fixed.push(dir);
    } catch (err) {
      ctx.log.warn({ dir, err }, 'workspace folder could not be closed to other users');
    }
  }
  if (fixed.length) ctx.log.info({ fixed: fixed.length }, 'workspace folders closed to other users (0700)');
  // The deployment's folder and WORKSPACE_DIR, made 0700 above or by an earlier release.
  if (passage) await openPassage(root, resolve(ctx.config.WORKSPACE_DIR));
  return fixed;
}
