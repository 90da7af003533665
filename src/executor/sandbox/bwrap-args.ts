import { lstatSync, readlinkSync } from 'node:fs';
import { etcSnapshot } from './etc-snapshot.ts';

/** Where the checkout appears inside the sandbox, whatever its path on the host (R-H3). */
export const SANDBOX_CHECKOUT = '/workspace';
/** The command's private HOME (a tmpfs, gone with the sandbox). */
export const SANDBOX_HOME = '/home/sandbox';

/** Top-level system folders bound read-only; on merged-/usr systems the `/bin`-like ones are links. */
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

export interface SandboxBind {
  host: string;
  inside: string;
  writable: boolean;
}

export interface BwrapSpec {
  /** The ticket's checkout on the host. */
  checkout: string;
  /** False for read-only profiles (reviewer, explorer: R-G4). */
  writable: boolean;
  network: 'none' | 'egress';
  /** Size of the private `/tmp` and of HOME, each a tmpfs. */
  tmpBytes: number;
  /**
   * bwrap runs as a uid of its own (issue 45): the command is uid and gid 0 inside its user
   * namespace, as under a root bot before, while on the host it is that uid.
   */
  rootInside?: boolean;
  /** Lets the sandbox's processes make user namespaces (needed by pasta when the bot is not root). */
  allowUserns?: boolean;
  /** A resolv.conf naming the egress DNS forwarder (network `egress` only). */
  resolvConf?: string;
  /**
   * Further host paths shown inside, each at its own path under `/opt/switchyard` or the like:
   * the screenshot tool's browser driver (read-only) and the folder its picture comes out in.
   * Where commands run as a uid of their own (issue 45), bwrap, already that uid, must be able to
   * walk to each: a writable one is given to it before the command, a read-only folder the host
   * made for the command (a syntax check's copy) is given to it by its maker.
   */
  binds?: SandboxBind[];
  /** The program and its arguments inside the sandbox. */
  argv: string[];
  env: Record<string, string>;
  /** File descriptors bwrap reports its child's pid on, and waits on before running the command (egress). */
  infoFd?: number;
  blockFd?: number;
}

/**
 * bubblewrap's argument vector for one command (R-H3): every namespace unshared (user, PID, IPC,
 * UTS, cgroup where possible, network for both modes — egress is attached to the new namespace
 * from outside), no capabilities, the system read-only, a fresh `/proc` of the sandbox's own PID
 * namespace, only the checkout (read-write, or read-only for read-only profiles), a clean
 * environment, and a new session so the command cannot push keystrokes into the bot's terminal.
 */
export function bwrapArgs(spec: BwrapSpec): string[] {
  const a = [
    '--unshare-user',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    '--unshare-net',
    '--die-with-parent',
    '--new-session',
    '--cap-drop',
    'ALL',
    '--hostname',
    'sandbox',
    '--clearenv',
  ];
  if (spec.rootInside) a.push('--uid', '0', '--gid', '0');
  // No user namespaces inside (a kernel attack surface), except where an unprivileged bot's pasta
  // must join the sandbox's own and make its isolation there (egress without root).
  if (!spec.allowUserns) a.push('--disable-userns');
  for (const dir of SYSTEM_DIRS) a.push(...systemDir(dir));
  // One bind of a copy instead of a mount per entry: each mount costs start-up time (issue 13 bench).
  a.push('--ro-bind', etcSnapshot(), '/etc');
  if (spec.resolvConf) a.push('--ro-bind', spec.resolvConf, '/etc/resolv.conf');
  // bwrap leaves /proc/sys writable (the folder itself is r-x, so its cover is skipped), and a
  // command of a bot running as root is root to those files: kernel.core_pattern or modprobe
  // would be an escape. Read-only, like Docker's.
  a.push('--proc', '/proc', '--ro-bind', '/proc/sys', '/proc/sys', '--dev', '/dev');
  const size = String(spec.tmpBytes);
  // bwrap's /dev is a tmpfs as large as half the host's memory, and /dev/shm is in it: shm gets
  // /tmp's cap and the rest of /dev is read-only (its device nodes still read and write).
  a.push('--size', size, '--tmpfs', '/dev/shm', '--remount-ro', '/dev');
  a.push('--size', size, '--tmpfs', '/tmp', '--size', size, '--tmpfs', SANDBOX_HOME);
  a.push('--symlink', '/tmp', '/var/tmp');
  a.push(spec.writable ? '--bind' : '--ro-bind', spec.checkout, SANDBOX_CHECKOUT);
  for (const b of spec.binds ?? []) a.push(b.writable ? '--bind' : '--ro-bind', b.host, b.inside);
  a.push('--chdir', SANDBOX_CHECKOUT);
  for (const [k, v] of Object.entries(spec.env)) a.push('--setenv', k, v);
  if (spec.infoFd !== undefined && spec.blockFd !== undefined)
    a.push('--info-fd', String(spec.infoFd), '--block-fd', String(spec.blockFd));
  a.push('--', ...spec.argv);
  return a;
}

function systemDir(dir: string): string[] {
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(dir);
  } catch {
    return [];
  }
  if (st.isSymbolicLink()) return ['--symlink', readlinkSync(dir), dir];
  return st.isDirectory() ? ['--ro-bind', dir, dir] : [];
}
