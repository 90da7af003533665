import { commandEnv } from '../workspace/command-env.ts';
import { runProcess } from '../workspace/run-process.ts';
import type { Workspace } from '../workspace/workspace-record.ts';
import { SANDBOX_HOME, type SandboxBind } from './bwrap-args.ts';
import { noteCheckoutUse, onlyDeletes, overCapRefusal } from './disk-gate.ts';
import { probeSandbox } from './probe-sandbox.ts';
import { runSandboxed, type SandboxLimit, type SandboxResult } from './run-sandboxed.ts';
import { diskInodes, type SandboxConfig, type SandboxSettings, sandboxSettings } from './sandbox-settings.ts';
import { ownCheckout } from './sandbox-user.ts';

export interface CheckoutRun {
  /** False for read-only profiles (reviewer, explorer: R-G4). */
  writable: boolean;
  timeoutMs: number;
  capBytes?: number;
  /** Overrides `SANDBOX_NETWORK` (git needs none; a fork's code must get none). */
  network?: 'none' | 'egress';
  env?: Record<string, string>;
  /** Host paths shown inside the sandbox besides the checkout (`SANDBOX=none`: not needed, the host's own paths are seen). */
  binds?: SandboxBind[];
  /** Aborted (the ticket paused, issue 28): the command is killed at once, `stopped` in the result. */
  signal?: AbortSignal;
}

export type CheckoutRunResult = { ok: true; result: SandboxResult } | { ok: false; refusal: string };

/**
 * Runs a program on a ticket's checkout the only way repository code may run (R-H3): in the
 * sandbox, or unconfined where the operator chose `SANDBOX=none`. Where bubblewrap cannot run
 * the answer is a refusal naming the fix, never an unconfined run.
 */
export async function runOnCheckout(
  config: SandboxConfig,
  ws: Pick<Workspace, 'dir' | 'home'>,
  argv: string[],
  opts: CheckoutRun,
): Promise<CheckoutRunResult> {
  const probe = await probeSandbox(config);
  if (!probe.ok) {
    return {
      ok: false,
      refusal: `refused: commands run only in a sandbox, and bubblewrap cannot run here (${probe.why}). Fix: ${probe.fix}`,
    };
  }
  const settings: SandboxSettings = {
    ...sandboxSettings(config),
    ...(probe.user ? { user: probe.user } : {}),
  };
  if (settings.mode === 'none') {
    const [file = 'true', ...args] = argv;
    const r = await runProcess(file, args, {
      cwd: ws.dir,
      env: commandEnv(ws.home, process.env, opts.env),
      timeoutMs: opts.timeoutMs,
      ...(opts.capBytes === undefined ? {} : { capBytes: opts.capBytes }),
      ...(opts.signal === undefined ? {} : { signal: opts.signal }),
    });
    return { ok: true, result: { ...r, limits: r.timedOut ? ['time'] : [] } };
  }
  // Issue 45: the checkout is the sandbox user's (one made before the switch is given over), or,
  // where a root bot's commands run as root again (the switch turned off or failing), root's back:
  // bwrap as root cannot enter a 0700 folder of a uid its namespace does not map.
  if (settings.user) await ownCheckout(ws.dir, settings.user, config.WORKSPACE_DIR);
  else if (process.getuid?.() === 0) await ownCheckout(ws.dir, { uid: 0, gid: 0 });
  // Issue 45: nothing that may write a checkout over its disk cap runs but a plain `rm`, and that
  // finds `rm` among the system's programs only.
  const over = opts.writable ? await overCapRefusal(settings, ws.dir, argv) : undefined;
  if (over) return { ok: false, refusal: over };
  const system = onlyDeletes(argv) ? { PATH: '/usr/bin:/bin' } : {};
  const result = await runSandboxed(settings, {
    checkout: ws.dir,
    writable: opts.writable,
    argv,
    env: commandEnv(SANDBOX_HOME, process.env, { TMPDIR: '/tmp', ...opts.env, ...system }),
    timeoutMs: opts.timeoutMs,
    ...(opts.capBytes === undefined ? {} : { capBytes: opts.capBytes }),
    ...(opts.network === undefined ? {} : { network: opts.network }),
    ...(opts.binds === undefined ? {} : { binds: opts.binds }),
    ...(opts.signal === undefined ? {} : { signal: opts.signal }),
  });
  if (opts.writable && result.diskBytes !== undefined && result.diskInodes !== undefined)
    await noteCheckoutUse(ws.dir, { bytes: result.diskBytes, inodes: result.diskInodes });
  return { ok: true, result };
}

const mb = (bytes: number) => Math.round(bytes / (1024 * 1024));

/** One sentence per cap a command ran into, naming the cap and its setting (R-H3). */
export function limitNotes(r: SandboxResult, s: SandboxSettings, seconds: number): string[] {
  const used =
    r.diskBytes === undefined ? '' : ` and uses ${mb(r.diskBytes)} MB in ${r.diskInodes ?? 0} of them`;
  const say: Record<SandboxLimit, string> = {
    time: `the command ran its ${seconds} s and every process of its sandbox was killed, background ones included`,
    memory: `a process was killed for using more than ${s.memoryMb} MB (SANDBOX_MEMORY_MB)`,
    processes: `a fork failed at the cap of ${s.pids} processes (SANDBOX_PIDS)`,
    disk: `the checkout may use at most ${s.diskMb} MB (SANDBOX_DISK_MB) in ${diskInodes(s)} files, folders and links (SANDBOX_DISK_INODES)${used}; delete what you do not need`,
    tmp: `/tmp and HOME hold at most ${s.tmpMb} MB each (SANDBOX_TMP_MB)`,
  };
  return r.limits.map((l) => `limit reached: ${l === 'tmp' ? 'disk space' : l} — ${say[l]}`);
}
