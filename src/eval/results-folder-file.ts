import { open, realpath } from 'node:fs/promises';
import { join, sep } from 'node:path';

/**
 * One file in the eval results folder, read for the panel (issue 29) without ever leaving the
 * folder: the path is resolved with every link followed and must still lie under the folder's
 * own real path, it must be a plain file, and no larger than `cap` bytes.
 */

export type FolderFile =
  | { kind: 'ok'; text: string }
  | { kind: 'missing' }
  | { kind: 'unreadable'; problem: string };

/** `relative` under `root`, links followed: its real path, `missing`, or `outside` the folder. */
export async function insideFolder(root: string, relative: string): Promise<string | 'missing' | 'outside'> {
  let top: string;
  let real: string;
  try {
    top = await realpath(root);
    real = await realpath(join(top, relative));
  } catch {
    return 'missing';
  }
  return real.startsWith(top + sep) ? real : 'outside';
}

export async function readFolderFile(root: string, relative: string, cap: number): Promise<FolderFile> {
  const path = await insideFolder(root, relative);
  if (path === 'missing') return { kind: 'missing' };
  if (path === 'outside')
    return { kind: 'unreadable', problem: `${relative} leads outside the results folder` };
  const handle = await open(path, 'r').catch(() => undefined);
  if (!handle) return { kind: 'unreadable', problem: `${relative} cannot be opened` };
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return { kind: 'unreadable', problem: `${relative} is not a file` };
    if (stat.size > cap)
      return { kind: 'unreadable', problem: `${relative} is larger than ${Math.round(cap / 2 ** 20)} MB` };
    return { kind: 'ok', text: await handle.readFile('utf8') };
  } finally {
    await handle.close();
  }
}
