import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Where this process may make cgroups for its sandboxes (R-H3 memory and process caps): cgroup v2
 * (one folder with the `memory` and `pids` controllers) or v1 (a folder in each hierarchy).
 */
export type CgroupRoot = { kind: 'v2'; dir: string } | { kind: 'v1'; memory: string; pids: string };

export interface SandboxCgroup {
  /** The group's folders (one for v2, memory and pids for v1): a process joins by writing its pid to `cgroup.procs` in each. */
  dirs: string[];
  /** How often the memory cap killed a process, and how often a fork hit the process cap. */
  events(): Promise<{ oomKills: number; forkFails: number }>;
  /** Kills every process left in the group and removes it. */
  close(): Promise<void>;
}

const FS = '/sys/fs/cgroup';

/** The cgroup paths of this process (`/proc/self/cgroup`), by controller ('' for v2). */
async function ownCgroups(): Promise<Map<string, string>> {
  const map = new Map<string, string>();
  for (const line of (await readFile('/proc/self/cgroup', 'utf8')).split('\n')) {
    const [, ctrls, path] = line.match(/^\d+:([^:]*):(.*)$/) ?? [];
    if (path === undefined || ctrls === undefined) continue;
    for (const c of ctrls.split(',')) map.set(c, path);
  }
  return map;
}

/**
 * Finds a cgroup root this process can write, trying v2 then v1; undefined when neither works
 * (a container without a writable cgroupfs): the sandbox then falls back to rlimits.
 */
export async function findCgroupRoot(): Promise<CgroupRoot | undefined> {
  const own = await ownCgroups().catch(() => new Map<string, string>());
  const v2 = own.get('');
  if (v2 !== undefined) {
    const dir = await delegateV2(join(FS, v2)).catch(() => undefined);
    if (dir) return { kind: 'v2', dir };
  }
  const mem = own.get('memory');
  const pids = own.get('pids');
  if (mem !== undefined && pids !== undefined) {
    const root: CgroupRoot = { kind: 'v1', memory: join(FS, 'memory', mem), pids: join(FS, 'pids', pids) };
    if (await canMake(root)) return root;
  }
  return undefined;
}

/**
 * cgroup v2 allows controllers for children only in a group without processes of its own (except
 * the root), so this process moves into a `host` leaf and enables memory and pids below its group.
 */
async function delegateV2(dir: string): Promise<string | undefined> {
  const controllers = await readFile(join(dir, 'cgroup.controllers'), 'utf8');
  if (!/\bmemory\b/.test(controllers) || !/\bpids\b/.test(controllers)) return undefined;
  const enabled = await readFile(join(dir, 'cgroup.subtree_control'), 'utf8');
  if (!/\bmemory\b/.test(enabled) || !/\bpids\b/.test(enabled)) {
    const leaf = join(dir, 'switchyard-host');
    await mkdir(leaf, { recursive: true });
    const procs = (await readFile(join(dir, 'cgroup.procs'), 'utf8')).split('\n').filter(Boolean);
    for (const pid of procs) await writeFile(join(leaf, 'cgroup.procs'), pid).catch(() => undefined);
    await writeFile(join(dir, 'cgroup.subtree_control'), '+memory +pids');
  }
  const root: CgroupRoot = { kind: 'v2', dir };
  return (await canMake(root)) ? dir : undefined;
}

async function canMake(root: CgroupRoot): Promise<boolean> {
  try {
    const g = await makeCgroup(root, { memoryBytes: 64 << 20, pids: 16 });
    await g.close();
    return true;
  } catch {
    return false;
  }
}

const counter = (text: string, name: string) =>
  Number(text.match(new RegExp(`^${name} (\\d+)`, 'm'))?.[1] ?? 0);
const read = (p: string) => readFile(p, 'utf8').catch(() => '');

/** A fresh group for one command with its memory and process caps. */
export async function makeCgroup(
  root: CgroupRoot,
  caps: { memoryBytes: number; pids: number },
): Promise<SandboxCgroup> {
  const name = `switchyard-sbx-${randomUUID().slice(0, 12)}`;
  const dirs = root.kind === 'v2' ? [join(root.dir, name)] : [join(root.memory, name), join(root.pids, name)];
  const [memDir = '', pidsDir = memDir] = dirs;
  for (const d of dirs) await mkdir(d);
  if (root.kind === 'v2') {
    await writeFile(join(memDir, 'memory.max'), String(caps.memoryBytes));
    await writeFile(join(memDir, 'memory.swap.max'), '0').catch(() => undefined);
  } else {
    await writeFile(join(memDir, 'memory.limit_in_bytes'), String(caps.memoryBytes));
    await writeFile(join(memDir, 'memory.memsw.limit_in_bytes'), String(caps.memoryBytes)).catch(
      () => undefined,
    );
  }
  await writeFile(join(pidsDir, 'pids.max'), String(caps.pids));
  return {
    dirs,
    async events() {
      const oom =
        root.kind === 'v2'
          ? await read(join(memDir, 'memory.events'))
          : await read(join(memDir, 'memory.oom_control'));
      return {
        oomKills: counter(oom, 'oom_kill'),
        forkFails: counter(await read(join(pidsDir, 'pids.events')), 'max'),
      };
    },
    async close() {
      await killAll(dirs);
      for (const d of dirs) await removeDir(d);
    },
  };
}

/** SIGKILLs every process of the groups until none is left (a fork race needs a second pass). */
async function killAll(dirs: string[]): Promise<void> {
  for (let pass = 0; pass < 20; pass++) {
    let seen = 0;
    for (const d of dirs) {
      for (const pid of (await read(join(d, 'cgroup.procs'))).split('\n').filter(Boolean)) {
        seen++;
        try {
          process.kill(Number(pid), 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
    if (!seen) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** rmdir fails while the last killed processes are being reaped: retry briefly. */
async function removeDir(dir: string): Promise<void> {
  for (let i = 0; i < 50; i++) {
    try {
      await rmdir(dir);
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}
