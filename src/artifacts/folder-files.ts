import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LayerFiles } from './load-layer.ts';

/** Whether every segment of `rel` under `root` is a real folder or file, never a link. */
async function linkFree(root: string, rel: string): Promise<boolean> {
  let at = root;
  for (const seg of rel.split('/').filter(Boolean)) {
    if (seg === '..' || seg === '.git') return false;
    at = join(at, seg);
    const st = await lstat(at).catch(() => undefined);
    if (!st || st.isSymbolicLink()) return false;
  }
  return true;
}

/**
 * A folder on disk as a layer's files, read as a repository's committed tree would be: regular
 * files only, and no link followed at any depth, so a folder cannot make the host read elsewhere.
 */
export function folderFiles(root: string): LayerFiles {
  return {
    async list(folder) {
      if (!(await linkFree(root, folder))) return [];
      return readdir(join(root, folder)).catch(() => [] as string[]);
    },
    async read(rel, maxBytes) {
      const abs = join(root, rel);
      const st = await lstat(abs).catch(() => undefined);
      if (!st || !(await linkFree(root, rel)) || !st.isFile())
        return { ok: false, why: 'is not a regular file (links are not followed)' };
      if (st.size > maxBytes) return { ok: false, why: `is over ${maxBytes} bytes` };
      return { ok: true, text: await readFile(abs, 'utf8') };
    },
  };
}
