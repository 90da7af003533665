import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NODE_TS, nodeCacheEnv } from '../kit/source-node.ts';
import { tempCheckout } from './sandbox-kit.ts';

const RUN_SANDBOXED = join(import.meta.dirname, '../../src/executor/sandbox/run-sandboxed.ts');

/**
 * A bot process started with a descriptor its launcher left open (here fd 300 on a host folder,
 * not close-on-exec), running one sandboxed command: what descriptors the command holds, and
 * whether it can write into that folder through /proc/self/fd.
 */
function sandboxWithInheritedFd(root: string, hostDir: string): string {
  const checkout = join(root, 'checkout');
  mkdirSync(checkout);
  const runner = join(root, 'runner.mjs');
  writeFileSync(
    runner,
    `const { runSandboxed } = await import(${JSON.stringify(RUN_SANDBOXED)});
const settings = { mode: 'bwrap', network: 'none', memoryMb: 256, pids: 64, diskMb: 32, tmpMb: 16 };
const r = await runSandboxed(settings, {
  checkout: ${JSON.stringify(checkout)},
  writable: true,
  argv: ['bash', '-c', 'ls /proc/self/fd | sort -n | tr "\\\\n" " "; echo; echo pwned > /proc/self/fd/300/from-sandbox.txt 2>/dev/null && echo WROTE'],
  env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/home/sandbox', TMPDIR: '/tmp' },
  timeoutMs: 20000,
});
process.stdout.write(r.output);
process.exit(0);
`,
  );
  const r = spawnSync(
    'bash',
    ['-c', 'exec 300<"$1"; shift; exec "$@"', 'bash', hostDir, process.execPath, ...NODE_TS, runner],
    {
      env: { PATH: process.env.PATH ?? '', HOME: root, ...nodeCacheEnv() },
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  if (r.status !== 0) throw new Error(`the runner failed: ${r.stderr}`);
  return r.stdout;
}

describe('R-H3: a descriptor the bot inherited never reaches a sandboxed command (real bubblewrap)', () => {
  const root = tempCheckout();
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('fd 300 on a host folder, open in the bot: the command holds only its own, and writes nothing there', () => {
    const hostDir = join(root, 'host-only');
    mkdirSync(hostDir);
    const out = sandboxWithInheritedFd(root, hostDir);
    const [fds = ''] = out.split('\n');
    // 0-2, and the one ls opened to read the folder.
    expect(fds.trim().split(' ')).toEqual(['0', '1', '2', '3']);
    expect(out).not.toContain('WROTE');
    expect(spawnSync('ls', [hostDir], { encoding: 'utf8' }).stdout).toBe('');
  });
});
