import { lstat, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSandboxed } from './run-sandboxed.ts';
import { sandboxHost } from './sandbox-host.ts';
import { type SandboxConfig, type SandboxSettings, sandboxSettings } from './sandbox-settings.ts';
import { giveToSandbox, planSandboxUser, type SandboxUser } from './sandbox-user.ts';

/** Whether commands can run, and how (for start-up, `npm run doctor` and the command tools). */
export interface SandboxProbe {
  ok: boolean;
  mode: 'bwrap' | 'none';
  network: 'none' | 'egress';
  /** How memory and process caps are enforced. */
  limits: 'cgroup-v2' | 'cgroup-v1' | 'rlimit' | 'none';
  /** The host uid commands run as (issue 45): `SANDBOX_UID` where the host allows it, else the bot's. */
  runsAs: number;
  /** Set when commands run as the sandbox uid. */
  user?: SandboxUser;
  /** Why commands run as the bot's own uid, said once at start-up and by the doctor. */
  runsAsWhy?: string;
  /** Why commands cannot run, and what to do about it (when `ok` is false). */
  why?: string;
  fix?: string;
  /** Weaker isolation than the default, said loudly at start-up. */
  warnings: string[];
}

export const SANDBOX_FIX =
  'install bubblewrap and passt (Debian: apt-get install bubblewrap passt iproute2) where unprivileged user namespaces are allowed (in Docker: see docker-compose.yml), or set SANDBOX=none to run commands unconfined (unsafe)';

const cache = new Map<string, Promise<SandboxProbe>>();

/**
 * Runs `true` in a real sandbox once per configuration, `PATH` (which `bwrap` runs) and process
 * (R-H3 "no sandbox, no commands"): the result is cached, so a host without bubblewrap is told
 * once, and each command tool answers from the cache.
 */
export function probeSandbox(config: SandboxConfig): Promise<SandboxProbe> {
  const key = JSON.stringify([
    sandboxSettings(config),
    config.SANDBOX_UID,
    config.WORKSPACE_DIR,
    process.env.PATH ?? '',
  ]);
  let p = cache.get(key);
  if (!p) {
    p = probe(config);
    cache.set(key, p);
  }
  return p;
}

async function probe(config: SandboxConfig): Promise<SandboxProbe> {
  const s = sandboxSettings(config);
  if (s.mode === 'none') {
    return {
      ok: true,
      mode: 'none',
      network: s.network,
      limits: 'none',
      runsAs: process.getuid?.() ?? 0,
      warnings: [
        'SANDBOX=none: repository code runs unconfined, with the bot’s view of processes, files, Redis and the network (only secrets are kept out of its environment). Use it only where every repository and every person who can start work is trusted.',
      ],
    };
  }
  const host = await sandboxHost();
  const base = { mode: s.mode, network: s.network, limits: host.limits } as const;
  const warnings =
    host.limits === 'rlimit'
      ? [
          'no writable cgroup: memory is capped per process (RLIMIT_AS) and processes per user (RLIMIT_NPROC, which does not bind a bot running as root)',
        ]
      : [];
  // Issue 45: as the sandbox uid where the host allows it; where that fails, as before.
  const plan = planSandboxUser(config);
  const tried = 'user' in plan ? await tryRun({ ...s, user: plan.user }) : undefined;
  if ('user' in plan && tried?.ok)
    return { ok: true, ...base, runsAs: plan.user.uid, user: plan.user, warnings };
  const bot = process.getuid?.() ?? 0;
  const failed = tried && !tried.ok ? tried.why : 'unknown';
  const runsAsWhy = 'why' in plan ? plan.why : `running as uid ${plan.user.uid} failed: ${failed}`;
  const got = await tryRun(s);
  if (got.ok) return { ok: true, ...base, runsAs: bot, runsAsWhy, warnings };
  return { ok: false, ...base, runsAs: bot, runsAsWhy, why: got.why, fix: SANDBOX_FIX, warnings };
}

/**
 * `true` in a real sandbox on an empty checkout; as the sandbox user, a file written there must
 * come out that user's on the host.
 */
async function tryRun(s: SandboxSettings): Promise<{ ok: true } | { ok: false; why: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-probe-'));
  try {
    if (s.user) await giveToSandbox(dir, s.user);
    const r = await runSandboxed(s, {
      checkout: dir,
      writable: true,
      argv: s.user ? ['touch', 'probe'] : ['true'],
      env: { PATH: '/usr/bin:/bin' },
      timeoutMs: 20_000,
    });
    if (r.exitCode !== 0)
      return { ok: false, why: `bwrap ran but \`${s.user ? 'touch' : 'true'}\` failed: ${r.output.trim()}` };
    const owner = s.user && (await lstat(join(dir, 'probe')).catch(() => undefined))?.uid;
    if (s.user && owner !== s.user.uid)
      return { ok: false, why: `a file the command wrote is uid ${owner}'s on the host` };
    return { ok: true };
  } catch (err) {
    return { ok: false, why: (err as Error).message };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Who files the host makes for commands must belong to (issue 45): the sandbox user where
 * commands run as one, else nobody in particular (the bot's own uid, as they are made).
 */
export async function commandOwner(config: SandboxConfig): Promise<SandboxUser | undefined> {
  const p = await probeSandbox(config);
  return p.ok ? p.user : undefined;
}
