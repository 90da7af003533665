import { type HostedChild, type HostedStdio, hostedSpawn } from '../spawn-host/hosted-spawn.ts';
import { CappedBuffer } from '../workspace/capped-buffer.ts';
import { type ProcessResult, whenAborted } from '../workspace/run-process.ts';
import { bwrapArgs, type SandboxBind } from './bwrap-args.ts';
import { makeCgroup, type SandboxCgroup } from './cgroup-limits.ts';
import { type DiskUse, diskUse } from './disk-usage.ts';
import { attachEgress, egressResolvConf } from './egress-net.ts';
import { pollInTurn } from './poll-in-turn.ts';
import { SandboxError } from './sandbox-error.ts';
import { sandboxHost } from './sandbox-host.ts';
import { diskInodes, type SandboxSettings } from './sandbox-settings.ts';
import { asUser, giveToSandbox, type SandboxUser } from './sandbox-user.ts';
import { stripSetIdBits } from './strip-set-id.ts';

/** A cap a command ran into; each is named to the model in words (`limitNotes`). */
export type SandboxLimit = 'time' | 'memory' | 'processes' | 'disk' | 'tmp';

export interface SandboxResult extends ProcessResult {
  limits: SandboxLimit[];
  /** Disk use after the command of all it could write on the host (the checkout, writable binds). */
  diskBytes?: number;
  /** Inodes the same folders hold after the command (issue 45). */
  diskInodes?: number;
}

export interface SandboxCommand {
  /** The ticket's checkout on the host; it appears at `/workspace`. */
  checkout: string;
  /** False for read-only profiles (R-G4): the checkout is bound read-only. */
  writable: boolean;
  argv: string[];
  env: Record<string, string>;
  timeoutMs: number;
  capBytes?: number;
  /** Overrides `SANDBOX_NETWORK` for this command (`none` for code from a fork). */
  network?: 'none' | 'egress';
  /** Host paths shown inside besides the checkout (see `BwrapSpec.binds`). */
  binds?: SandboxBind[];
  /** Aborted (a pause): every process of the sandbox is killed at once, `stopped` in the result. */
  signal?: AbortSignal;
}

const MB = 1024 * 1024;
const INFO_FD = 3;
const BLOCK_FD = 4;
/** How often the checkout's disk use is measured while a command runs. */
const DISK_POLL_MS = 5_000;
/** Exit status of a process killed by SIGXFSZ (a file over RLIMIT_FSIZE). */
const FSIZE_EXIT = 128 + 25;

/**
 * Runs one program under bubblewrap (R-H3): own namespaces, system read-only, only the checkout
 * visible, private `/tmp` and HOME, its memory and process caps in a cgroup of its own (rlimits
 * where no cgroup is writable), network `none` or pasta egress attached before the command starts,
 * and at the time-out or the end every process of the sandbox killed — its PID namespace dies with
 * its init, and the cgroup is emptied — so nothing backgrounded with `setsid` or `nohup` survives.
 */
export async function runSandboxed(settings: SandboxSettings, cmd: SandboxCommand): Promise<SandboxResult> {
  const host = await sandboxHost();
  const cg = host.cgroup
    ? await makeCgroup(host.cgroup, { memoryBytes: settings.memoryMb * MB, pids: settings.pids })
    : undefined;
  try {
    return await runIn(settings, cmd, cg);
  } finally {
    await cg?.close();
  }
}

/** `prlimit` in front of the command: a file-size cap always, memory and processes without cgroups. */
function limitedArgv(s: SandboxSettings, cgroups: boolean, argv: string[]): string[] {
  const caps = [`--fsize=${s.diskMb * MB}`, '--core=0'];
  if (!cgroups) caps.push(`--as=${s.memoryMb * MB}`, `--nproc=${s.pids}`);
  return ['prlimit', ...caps, '--', ...argv];
}

async function runIn(s: SandboxSettings, cmd: SandboxCommand, cg?: SandboxCgroup): Promise<SandboxResult> {
  const network = cmd.network ?? s.network;
  const args = bwrapArgs({
    checkout: cmd.checkout,
    writable: cmd.writable,
    network,
    tmpBytes: s.tmpMb * MB,
    ...(network === 'egress' ? { resolvConf: egressResolvConf() } : {}),
    ...(cmd.binds ? { binds: cmd.binds } : {}),
    argv: limitedArgv(s, Boolean(cg), cmd.argv),
    env: cmd.env,
    ...(network === 'egress' ? { infoFd: INFO_FD, blockFd: BLOCK_FD } : {}),
    allowUserns: network === 'egress' && process.getuid?.() !== 0,
    ...(s.user ? { rootInside: true } : {}),
  });
  const written = [
    ...(cmd.writable ? [cmd.checkout] : []),
    ...(cmd.binds ?? []).filter((b) => b.writable).map((b) => b.host),
  ];
  // Issue 45: a writable bind the host made for this command (the screenshot's output folder) is
  // the command's to write; the checkout was given over when it was made (`ownCheckout`).
  if (s.user) for (const b of cmd.binds ?? []) if (b.writable) await giveToSandbox(b.host, s.user);
  const child = startBwrap(args, cg, network === 'egress', s.user);
  const cap = cmd.capBytes ?? 20_000;
  const out = new CappedBuffer(cap);
  const stdout = new CappedBuffer(cap);
  child.stdout?.on('data', (b: Buffer) => {
    out.push(b);
    stdout.push(b);
  });
  child.stderr?.on('data', (b: Buffer) => out.push(b));
  let spawnError = '';
  const exited = new Promise<number | null>((resolve) => {
    child.on('error', (err: Error) => {
      spawnError = err.message;
      resolve(null);
    });
    child.on('close', (code: number | null) => resolve(code));
  });
  let killedFor: SandboxLimit | undefined;
  const kill = (why?: SandboxLimit) => {
    killedFor ??= why;
    child.killGroup();
  };
  const timer = setTimeout(() => kill('time'), cmd.timeoutMs);
  let stopped = false;
  const unwatch = whenAborted(cmd.signal, () => {
    stopped = true;
    kill();
  });
  // The disk cap covers all it may write on the host: the checkout and any writable bind (the
  // screenshot tool's output folder, where the repository's own serve command can write too).
  const poll = written.length ? watchDisk(written, s, () => kill('disk')) : undefined;
  let stopNet: (() => void) | undefined;
  try {
    // Egress only: pasta attaches to the new network namespace while bwrap waits on its block fd.
    if (network === 'egress') {
      const childPid = await childPidOf(child, exited);
      stopNet = await attachEgress(childPid, Boolean(s.user));
      child.stdio[BLOCK_FD]?.write('1');
    }
  } catch (err) {
    kill();
    clearTimeout(timer);
    unwatch();
    await poll?.stop();
    await exited;
    stopNet?.();
    // A pause that came while the sandbox was being set up stopped the command before it began.
    if (stopped)
      return { exitCode: null, timedOut: false, output: '', stdout: '', dropped: 0, limits: [], stopped };
    const why = `${(err as Error).message} ${spawnError} ${out.text()}`.replace(/\s+/g, ' ').trim();
    throw new SandboxError(`the sandbox could not start: ${why}`);
  }
  const code = await exited;
  clearTimeout(timer);
  unwatch();
  await poll?.stop();
  stopNet?.();
  child.killGroup();
  const events = (await cg?.events()) ?? { oomKills: 0, forkFails: 0 };
  const disk = written.length ? await afterCommand(written) : undefined;
  const output = out.text();
  const limits = new Set<SandboxLimit>();
  if (killedFor) limits.add(killedFor);
  if (events.oomKills > 0) limits.add('memory');
  if (events.forkFails > 0) limits.add('processes');
  if (code === FSIZE_EXIT || (disk && overDiskCap(disk, s))) limits.add('disk');
  if (/No space left on device/i.test(output) && !limits.has('disk')) limits.add('tmp');
  if (!cg) for (const l of rlimitSigns(output)) limits.add(l);
  return {
    exitCode: killedFor === 'time' ? null : code,
    timedOut: killedFor === 'time',
    output,
    stdout: stdout.text(),
    dropped: out.dropped,
    limits: [...limits],
    ...(disk ? { diskBytes: disk.bytes, diskInodes: disk.inodes } : {}),
    ...(stopped ? { stopped: true as const } : {}),
  };
}

/**
 * Joins the command's cgroups before bwrap exists (a shell writes its own pid, then becomes
 * bwrap, or `setpriv` and then bwrap), so every process of the sandbox is born inside them and
 * none is moved afterwards.
 */
const ENTER_CGROUPS =
  'IFS=:; for d in $SY_CGROUPS; do echo $$ > "$d/cgroup.procs" || exit 97; done; unset SY_CGROUPS; exec "$@"';

/**
 * bwrap, started as the sandbox user where there is one (issue 45): `setpriv` drops root's uid,
 * gid and groups (and with them every capability) before bwrap runs, so bwrap makes its user
 * namespace as that uid, as for any unprivileged user.
 */
function startBwrap(
  args: string[],
  cg: SandboxCgroup | undefined,
  egress: boolean,
  user: SandboxUser | undefined,
): HostedChild {
  const PATH = process.env.PATH ?? '/usr/bin:/bin';
  const stdio: HostedStdio = egress ? ['ignore', 'pipe', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'];
  const opts = { detached: true, stdio };
  const [file, ...rest] = [...(user ? asUser(user) : []), 'bwrap', ...args] as [string, ...string[]];
  if (!cg) return hostedSpawn(file, rest, { ...opts, env: { PATH } });
  return hostedSpawn('sh', ['-c', ENTER_CGROUPS, 'sh', file, ...rest], {
    ...opts,
    env: { PATH, SY_CGROUPS: cg.dirs.join(':') },
  });
}

/** Without cgroups the kernel reports no events; the programs' own complaints are all there is. */
function rlimitSigns(output: string): SandboxLimit[] {
  const found: SandboxLimit[] = [];
  if (/Cannot allocate memory|out of memory|memory exhausted|MemoryError/i.test(output)) found.push('memory');
  if (/fork: .*Resource temporarily unavailable|Cannot fork/i.test(output)) found.push('processes');
  return found;
}

/** bwrap writes `{"child-pid": N, …}` on its info fd once the namespaces exist, then waits. */
function childPidOf(child: HostedChild, exited: Promise<number | null>): Promise<number> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdio[INFO_FD]?.on('data', (b: Buffer) => {
      text += b.toString();
      const pid = /"child-pid"\s*:\s*(\d+)/.exec(text)?.[1];
      if (pid) resolve(Number(pid));
    });
    void exited.then((code) => reject(new Error(`bwrap exited (${code}) before the command`)));
  });
}

/** Whether a measure is past the disk cap or the inode cap (issue 45: inodes count). */
export function overDiskCap(use: Pick<DiskUse, 'bytes' | 'inodes'>, s: SandboxSettings): boolean {
  return use.bytes > s.diskMb * MB || use.inodes > diskInodes(s);
}

/**
 * Measures what the command left, once every process of its sandbox is gone, and takes the
 * set-id bits off whatever it made set-id (issue 45: `chmod 4755` kept its bit on the host).
 */
async function afterCommand(written: readonly string[]): Promise<DiskUse | undefined> {
  const use = await diskUse(written);
  if (use?.setId.length) await stripSetIdBits(use.setId);
  return use;
}

/** Measures the disk every `DISK_POLL_MS` while the command runs, one measure at a time. */
function watchDisk(dirs: readonly string[], s: SandboxSettings, over: () => void) {
  return pollInTurn(async () => {
    const use = await diskUse(dirs);
    if (use && overDiskCap(use, s)) over();
  }, DISK_POLL_MS);
}
