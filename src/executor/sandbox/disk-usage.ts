import { hostedSpawn } from '../spawn-host/hosted-spawn.ts';

/** What folders hold on disk, counted as `du -sxc` and `du --inodes` would (R-H3 disk cap). */
export interface DiskUse {
  bytes: number;
  /** Files, folders and links: each takes an inode whatever its size (issue 45). */
  inodes: number;
  /** Entries with a set-user-id or set-group-id bit, other than links (for `stripSetIdBits`). */
  setId: string[];
}

/**
 * One walk per measure (issue 45): `find` prints each entry's device, inode, link count and
 * blocks, `awk` counts a hard-linked file once, as `du` does, and set-id entries are written
 * NUL-separated to a file of the bot's own (the spawn host's pipes are sockets, which `find`
 * cannot open by name), printed after the counts' line; `%.0f`, since mawk's `%d` may stop at 2^31.
 * A walk that cannot run measures nothing.
 */
const WALK = `ids=$(mktemp) || exit 1
find "$@" -xdev \\( -perm /6000 ! -type l -fprint0 "$ids" \\) , -printf '%D:%i %n %b\\n' | awk '$2 > 1 { if ($1 in seen) next; seen[$1] = 1 } { n++; b += $3 } END { printf "%.0f %.0f\\n", n, b * 512 }'
cat "$ids"; rm -f "$ids"`;

/** Bytes and inodes folders take together, and their set-id entries; undefined when unmeasured. */
export function diskUse(dirs: readonly string[]): Promise<DiskUse | undefined> {
  return new Promise((resolve) => {
    const walk = hostedSpawn('sh', ['-c', WALK, 'sh', ...dirs], { stdio: ['ignore', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    walk.stdout?.on('data', (b: Buffer) => chunks.push(b));
    walk.on('error', () => resolve(undefined));
    walk.on('close', () => {
      const text = Buffer.concat(chunks).toString();
      const end = text.indexOf('\n');
      const [inodes, bytes] = text.slice(0, end).split(' ').map(Number);
      if (end < 0 || !Number.isSafeInteger(inodes) || !Number.isSafeInteger(bytes)) return resolve(undefined);
      const setId = text
        .slice(end + 1)
        .split('\0')
        .filter(Boolean);
      resolve({ bytes: bytes ?? 0, inodes: inodes ?? 0, setId });
    });
  });
}
