import { constants } from 'node:fs';
import { lstat, open } from 'node:fs/promises';

const SET_ID = 0o6000;

/**
 * Takes the set-user-id and set-group-id bits off `paths` on the host after a sandboxed command
 * (issue 45): bwrap binds the checkout `nosuid` inside, but the file on the host keeps its bit,
 * and a program the bot's uid owns would run as the bot for whoever reaches it. Each entry is
 * changed through a descriptor opened without following a link and checked to be the entry
 * listed (same device and inode, a file or folder), so a path swapped for a link in between
 * changes nothing outside. Returns the paths changed.
 */
export async function stripSetIdBits(paths: readonly string[]): Promise<string[]> {
  const changed: string[] = [];
  for (const path of paths) if (await stripOne(path)) changed.push(path);
  return changed;
}

async function stripOne(path: string): Promise<boolean> {
  const seen = await lstat(path).catch(() => undefined);
  if (!seen || !(seen.isFile() || seen.isDirectory()) || (seen.mode & SET_ID) === 0) return false;
  // O_NONBLOCK: an entry swapped for a FIFO since must not hold the host here.
  const flags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
  const fh = await open(path, flags).catch(() => undefined);
  if (!fh) return false;
  try {
    const st = await fh.stat();
    if (st.dev !== seen.dev || st.ino !== seen.ino || !(st.isFile() || st.isDirectory())) return false;
    await fh.chmod(st.mode & 0o7777 & ~SET_ID);
    return true;
  } finally {
    await fh.close();
  }
}
