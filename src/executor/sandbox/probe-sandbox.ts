import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSandboxed } from './run-sandboxed.ts';
import { sandboxHost } from './sandbox-host.ts';
import { type SandboxConfig, sandboxSettings } from './sandbox-settings.ts';

/** Whether commands can run, and how (for start-up, `npm run doctor` and the command tools). */
export interface SandboxProbe {
  ok: boolean;
  mode: 'bwrap' | 'none';
  network: 'none' | 'egress';
  /** How memory and process caps are enforced. */
  limits: 'cgroup-v2' | 'cgroup-v1' | 'rlimit' | 'none';
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
  const key = JSON.stringify([sandboxSettings(config), process.env.PATH ?? '']);
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
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-probe-'));
  try {
    const r = await runSandboxed(s, {
      checkout: dir,
      writable: true,
      argv: ['true'],
      env: { PATH: '/usr/bin:/bin' },
      timeoutMs: 20_000,
    });
    if (r.exitCode === 0) return { ok: true, ...base, warnings };
    return {
      ok: false,
      ...base,
      why: `bwrap ran but \`true\` failed: ${r.output.trim()}`,
      fix: SANDBOX_FIX,
      warnings,
    };
  } catch (err) {
    return { ok: false, ...base, why: (err as Error).message, fix: SANDBOX_FIX, warnings };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
