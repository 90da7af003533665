import { existsSync, lstatSync, readlinkSync } from 'node:fs';

/** Where the checkout appears inside the sandbox, whatever its path on the host (R-H3). */
export const SANDBOX_CHECKOUT = '/workspace';
/** The command's private HOME (a tmpfs, gone with the sandbox). */
export const SANDBOX_HOME = '/home/sandbox';

/**
 * What of `/etc` a command sees: name resolution, certificates, the dynamic loader and the
 * language runtimes' own settings. An allow-list, not a deny-list, so a secret some package drops
 * into `/etc` later (`shadow`, `ssh/` host keys, a database's password file) stays out (R-H3).
 */
const ETC_ALLOWED = [
  'alternatives',
  'bash.bashrc',
  'ca-certificates',
  'ca-certificates.conf',
  'debian_version',
  'gai.conf',
  'group',
  'host.conf',
  'hostname',
  'hosts',
  'inputrc',
  'java-17-openjdk',
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'locale.alias',
  'localtime',
  'mime.types',
  'nsswitch.conf',
  'os-release',
  'passwd',
  'perl',
  'profile',
  'profile.d',
  'protocols',
  'python3',
  'python3.11',
  'resolv.conf',
  'services',
  'ssl',
  'timezone',
];

/** Top-level system folders bound read-only; on merged-/usr systems the `/bin`-like ones are links. */
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

export interface BwrapSpec {
  /** The ticket's checkout on the host. */
  checkout: string;
  /** False for read-only profiles (reviewer, explorer: R-G4). */
  writable: boolean;
  network: 'none' | 'egress';
  /** Size of the private `/tmp` and of HOME, each a tmpfs. */
  tmpBytes: number;
  /** A resolv.conf naming the egress DNS forwarder (network `egress` only). */
  resolvConf?: string;
  /** The program and its arguments inside the sandbox. */
  argv: string[];
  env: Record<string, string>;
  /** File descriptors bwrap reports its child's pid on, and waits on before running the command. */
  infoFd: number;
  blockFd: number;
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
    '--disable-userns',
    '--die-with-parent',
    '--new-session',
    '--cap-drop',
    'ALL',
    '--hostname',
    'sandbox',
    '--clearenv',
  ];
  for (const dir of SYSTEM_DIRS) a.push(...systemDir(dir));
  for (const name of ETC_ALLOWED) {
    const path = `/etc/${name}`;
    if (name === 'resolv.conf' && spec.resolvConf) a.push('--ro-bind', spec.resolvConf, path);
    else if (existsSync(path)) a.push('--ro-bind', path, path);
  }
  // Private keys of the host's TLS set-up, when /etc/ssl has them, stay hidden.
  if (existsSync('/etc/ssl/private')) a.push('--tmpfs', '/etc/ssl/private');
  // bwrap leaves /proc/sys writable (the folder itself is r-x, so its cover is skipped), and a
  // command of a bot running as root is root to those files: kernel.core_pattern or modprobe
  // would be an escape. Read-only, like Docker's.
  a.push('--proc', '/proc', '--ro-bind', '/proc/sys', '/proc/sys', '--dev', '/dev');
  const size = String(spec.tmpBytes);
  a.push('--size', size, '--tmpfs', '/tmp', '--size', size, '--tmpfs', SANDBOX_HOME);
  a.push('--symlink', '/tmp', '/var/tmp');
  a.push(spec.writable ? '--bind' : '--ro-bind', spec.checkout, SANDBOX_CHECKOUT);
  a.push('--chdir', SANDBOX_CHECKOUT);
  for (const [k, v] of Object.entries(spec.env)) a.push('--setenv', k, v);
  a.push('--info-fd', String(spec.infoFd), '--block-fd', String(spec.blockFd), '--', ...spec.argv);
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
