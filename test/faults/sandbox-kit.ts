import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SANDBOX_HOME } from '../../src/executor/sandbox/bwrap-args.ts';
import { runSandboxed, type SandboxCommand } from '../../src/executor/sandbox/run-sandboxed.ts';
import type { SandboxSettings } from '../../src/executor/sandbox/sandbox-settings.ts';

/** Small caps so each one is reached in a second or two. */
export const SMALL: SandboxSettings = {
  mode: 'bwrap',
  network: 'none',
  memoryMb: 128,
  pids: 48,
  diskMb: 32,
  tmpMb: 16,
};

export function tempCheckout(): string {
  return mkdtempSync(join(tmpdir(), 'sy-sandbox-'));
}

/** One `bash -c` in the real sandbox on `checkout`. */
export function sandboxed(
  checkout: string,
  command: string,
  opts: Partial<SandboxCommand> & { settings?: SandboxSettings } = {},
) {
  const { settings = SMALL, ...rest } = opts;
  return runSandboxed(settings, {
    checkout,
    writable: true,
    argv: ['bash', '-c', command],
    env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: SANDBOX_HOME, TMPDIR: '/tmp' },
    timeoutMs: 20_000,
    ...rest,
  });
}

/** Host processes whose command line contains `marker`, seen from the host's /proc. */
export function hostProcessesWith(marker: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmd.includes(marker)) found.push(`${pid}: ${cmd}`);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/**
 * A bash snippet trying a TCP connection: prints `CONNECTED host:port` when the connection opens,
 * then whatever the peer answers to `payload` within a second.
 */
export function tcpProbe(host: string, port: number, payload = 'PING\\r\\n'): string {
  const to = `${host}:${port}`;
  return `timeout 4 bash -c 'exec 3<>/dev/tcp/${host}/${port} 2>/dev/null || { echo "no connection to ${to}"; exit 0; }; echo "CONNECTED ${to}"; printf "${payload}" >&3; timeout 1 head -c 200 <&3; echo' || echo "no connection to ${to} (timed out)"`;
}
