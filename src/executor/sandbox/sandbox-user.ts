import { existsSync, mkdirSync, statSync } from 'node:fs';
import { chmod, lstat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { runProcess } from '../workspace/run-process.ts';

/** The host uid and gid a sandboxed command runs as (issue 45), when it is not the bot's. */
export interface SandboxUser {
  uid: number;
  gid: number;
}

/** What `planSandboxUser` reads of the configuration; a config without `SANDBOX_UID` keeps the bot's uid. */
export interface SandboxUserConfig {
  SANDBOX_UID?: number;
  WORKSPACE_DIR?: string;
}

/** `setpriv` in front of bwrap: the command's whole process tree is `user`'s, with no groups of root's. */
export function asUser(user: SandboxUser): string[] {
  return ['setpriv', `--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups', '--'];
}

/**
 * Whether commands can run as `SANDBOX_UID` on this host (issue 45), before the probe tries it:
 * the bot must be root (only root may start a process as another uid without a setuid helper),
 * `setpriv` (util-linux) must be there, and the sandbox uid must be able to walk to everything
 * bwrap binds by path — the folders above `WORKSPACE_DIR` (the bot opens `WORKSPACE_DIR` and its
 * deployment folder itself) and the temporary folder (the `/etc` copy, screenshot output).
 */
export function planSandboxUser(c: SandboxUserConfig): { user: SandboxUser } | { why: string } {
  const uid = c.SANDBOX_UID;
  if (!uid) return { why: 'SANDBOX_UID=0 keeps the bot’s own uid' };
  const own = process.getuid?.();
  if (own !== 0)
    return {
      why: `the bot runs as uid ${own}, not root, and only root can start commands as another uid`,
    };
  if (!onPath('setpriv')) return { why: 'setpriv (util-linux) is not on PATH' };
  // The way there first: a WORKSPACE_DIR made 0711 under a closed folder, for a plan that then
  // falls back to the bot's uid, would be left open for nothing (the doctor flagged it).
  const closed = [...(c.WORKSPACE_DIR ? [dirname(resolve(c.WORKSPACE_DIR))] : []), tmpdir()].map(
    closedAncestor,
  );
  const first = closed.find((x) => x !== undefined);
  if (first)
    return {
      why: `${first.dir} (mode ${first.mode.toString(8).padStart(4, '0')}) lets no other user through, and the sandbox uid must reach WORKSPACE_DIR and ${tmpdir()}; give it o+x (0711) or move WORKSPACE_DIR`,
    };
  if (c.WORKSPACE_DIR) {
    // Made here when missing, with the passage the sandbox uid needs (only what is made now).
    const made = mkdirOpen(resolve(c.WORKSPACE_DIR));
    if (made) return { why: `WORKSPACE_DIR could not be made (${made})` };
  }
  return { user: { uid, gid: uid } };
}

function mkdirOpen(dir: string): string | undefined {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o711 });
    return undefined;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code ?? (err as Error).message;
  }
}

function onPath(program: string): boolean {
  return (process.env.PATH ?? '/usr/bin:/bin')
    .split(delimiter)
    .some((dir) => dir && existsSync(join(dir, program)));
}

/** The first existing folder on the way to `dir` (itself included) that others cannot pass. */
function closedAncestor(dir: string): { dir: string; mode: number } | undefined {
  const chain: string[] = [];
  for (let d = resolve(dir); ; d = dirname(d)) {
    chain.unshift(d);
    if (dirname(d) === d) break;
  }
  for (const d of chain) {
    const st = statSync(d, { throwIfNoEntry: false });
    if (!st) return undefined;
    if ((st.mode & 0o001) === 0) return { dir: d, mode: st.mode & 0o7777 };
  }
  return undefined;
}

/**
 * Gives `path` and everything below it to the sandbox user: links themselves, never followed
 * (`chown -R -P -h`). For what the host made for a command (a checkout it filled, a fresh output
 * folder) while no command runs there.
 */
export async function giveToSandbox(path: string, user: SandboxUser): Promise<void> {
  const r = await runProcess('chown', ['-R', '-P', '-h', `${user.uid}:${user.gid}`, '--', path], {
    cwd: '/',
    env: { PATH: '/usr/bin:/bin' },
    timeoutMs: 600_000,
  });
  if (r.exitCode !== 0) throw new Error(`chown of ${path} failed (${r.exitCode}): ${r.output.trim()}`);
}

const giving = new Map<string, Promise<void>>();

/**
 * The checkout is the sandbox user's, and the bot's folders between it and `WORKSPACE_DIR`
 * (included) let that user through (0711: enter, not list): checked before each command, one
 * `lstat` when nothing is to do. A checkout made before the uid switch (or by hand) is given over
 * whole, once.
 */
export async function ownCheckout(dir: string, user: SandboxUser, workspaceDir?: string): Promise<void> {
  const st = await lstat(dir).catch(() => undefined);
  if (!st?.isDirectory()) return;
  if (st.uid !== user.uid) {
    let run = giving.get(dir);
    if (!run) {
      run = giveToSandbox(dir, user).finally(() => giving.delete(dir));
      giving.set(dir, run);
    }
    await run;
  }
  if (workspaceDir) await openPassage(dirname(dir), resolve(workspaceDir));
}

/** Adds o+x and g+x to the bot's own folders from `from` up to `top` (included) that lack it. */
export async function openPassage(from: string, top: string): Promise<void> {
  for (let d = resolve(from); d === top || d.startsWith(`${top}/`); d = dirname(d)) {
    const st = await lstat(d).catch(() => undefined);
    if (st?.isDirectory() && st.uid === process.getuid?.() && (st.mode & 0o011) !== 0o011)
      await chmod(d, (st.mode & 0o7777) | 0o011);
    if (d === top) break;
  }
}
