import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSandboxed } from '../../../src/executor/sandbox/run-sandboxed.ts';
import { hostedSpawn } from '../../../src/executor/spawn-host/hosted-spawn.ts';
import { runProcess } from '../../../src/executor/workspace/run-process.ts';
import { NODE_TS } from '../../kit/source-node.ts';

/**
 * The spawn host: the worker's programs (host git, bwrap, du, pasta) are started by a small
 * process it forks once, not by forking the worker itself each time, with the same pipes, exit
 * status, kills and clean-up as a direct spawn.
 */

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
const opts = { cwd: '/', env, timeoutMs: 20_000 };

const parentOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
};
const cmdline = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !/^[^)]*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

async function gone(pid: number, ms = 10_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

function started(child: ReturnType<typeof hostedSpawn>): Promise<number> {
  return new Promise((resolve, reject) => {
    const end = Date.now() + 10_000;
    const poll = () => {
      if (child.pid !== undefined) resolve(child.pid);
      else if (Date.now() > end) reject(new Error('no pid'));
      else setTimeout(poll, 5);
    };
    poll();
  });
}

describe('the spawn host', () => {
  it('starts the worker’s programs as its own children, not the worker’s', async () => {
    const r = await runProcess('sh', ['-c', 'echo $PPID'], opts);
    const host = Number(r.stdout.trim());
    expect(host).not.toBe(process.pid);
    expect(cmdline(host)).toContain('spawn-host.mjs');
    expect(parentOf(host)).toBe(process.pid);
    // One host serves every program.
    expect(Number((await runProcess('sh', ['-c', 'echo $PPID'], opts)).stdout.trim())).toBe(host);
  });

  it('what the host starts, a sandboxed command included, holds no descriptor of the host’s channel to this process', async () => {
    // Sockets a program holds, by descriptor: its stdout and stderr are sockets (libuv's pipes);
    // anything else would be the channel over which the host takes orders and reports output.
    const sockets = (listing: string) =>
      listing
        .split('\n')
        .filter((l) => l.includes('socket:'))
        .map((l) => Number(/ (\d+) -> /.exec(l)?.[1]));
    const direct = await runProcess('sh', ['-c', 'ls -l /proc/$$/fd'], opts);
    expect(sockets(direct.stdout)).toEqual([1, 2]);
    const checkout = mkdtempSync(join(tmpdir(), 'sy-spawn-host-'));
    try {
      const settings = {
        mode: 'bwrap',
        network: 'none',
        memoryMb: 512,
        pids: 64,
        diskMb: 64,
        tmpMb: 16,
      } as const;
      const boxed = await runSandboxed(settings, {
        checkout,
        writable: false,
        argv: ['sh', '-c', 'ls -l /proc/$$/fd'],
        env,
        timeoutMs: 20_000,
      });
      expect(boxed.exitCode, boxed.output).toBe(0);
      expect(sockets(boxed.stdout)).toEqual([1, 2]);
    } finally {
      rmSync(checkout, { recursive: true, force: true });
    }
  });

  it('passes stdin, stdout and stderr through, with the exit status, the directory and only the given environment', async () => {
    const script =
      'cat; echo "to stderr" >&2; pwd; if [ -n "$HOME" ]; then echo home=set; else echo home=unset; fi; exit 3';
    const r = await runProcess('sh', ['-c', script], { ...opts, cwd: '/tmp', stdin: 'hello\n' });
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toBe('hello\n/tmp\nhome=unset\n');
    expect(r.output).toContain('to stderr');
    const big = await runProcess('sh', ['-c', 'head -c 300000 /dev/zero | tr "\\0" x'], {
      ...opts,
      capBytes: 1000,
    });
    expect(big.stdout.length).toBeLessThan(1200);
    expect(big.dropped).toBe(299_000);
  });

  it('a program that does not exist fails as a direct spawn does (ENOENT)', async () => {
    await expect(runProcess('no-such-program-sy', [], opts)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('an abort that comes before the program has a pid still stops it, and its time-out too', async () => {
    const t0 = Date.now();
    const stopped = await runProcess('sleep', ['30'], { ...opts, signal: AbortSignal.abort() });
    expect(stopped).toMatchObject({ stopped: true, exitCode: null });
    const timed = await runProcess('sleep', ['30'], { ...opts, timeoutMs: 300 });
    expect(timed).toMatchObject({ timedOut: true, exitCode: null });
    expect(Date.now() - t0).toBeLessThan(10_000);
  });

  it('a lost host fails the programs it was running, and the next program starts a new host', async () => {
    const child = hostedSpawn('sleep', ['30'], { detached: true, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const closed = new Promise<unknown[]>((resolve) => child.on('close', (...a: unknown[]) => resolve(a)));
    const errors: { code?: string }[] = [];
    child.on('error', (e: { code?: string }) => errors.push(e));
    const pid = await started(child);
    const host = parentOf(pid);
    process.kill(host, 'SIGKILL');
    expect(await closed).toEqual([null, null]);
    expect(errors).toMatchObject([{ code: 'ESPAWNHOST' }]);
    child.killGroup();
    expect(await gone(pid)).toBe(true);
    const next = await runProcess('sh', ['-c', 'echo $PPID'], opts);
    expect(Number(next.stdout.trim())).not.toBe(host);
    expect(next.exitCode).toBe(0);
  });

  it('a program that writes faster than this process reads waits in its pipe, not in the host’s memory', async () => {
    const child = hostedSpawn('yes', [], { detached: true, env, stdio: ['ignore', 'pipe', 'ignore'] });
    const closed = new Promise((resolve) => child.on('close', resolve));
    let got = 0;
    child.stdout?.on('data', (b: Buffer) => {
      got += b.length;
    });
    const host = parentOf(await started(child));
    const rssMb = () =>
      Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${host}/status`, 'utf8'))?.[1]) / 1024;
    await new Promise((r) => setTimeout(r, 200));
    const before = rssMb();
    // This process reads nothing for a second and a half; the host must not read on for it.
    const end = Date.now() + 1500;
    while (Date.now() < end) {}
    const during = rssMb();
    child.killGroup();
    await closed;
    expect(got).toBeGreaterThan(0);
    expect(during - before).toBeLessThan(48);
  });

  it('when the process that asked dies, even by SIGKILL, the host kills what it started and leaves', async () => {
    const code = `
      import { hostedSpawn } from ${JSON.stringify(new URL('../../../src/executor/spawn-host/hosted-spawn.ts', import.meta.url).href)};
      const child = hostedSpawn('sh', ['-c', 'sleep 60 & echo $!; wait'], { detached: true });
      child.stdout.on('data', (b) => process.stdout.write(b));
      setInterval(() => {}, 1000);
    `;
    const asker = spawn(process.execPath, [...NODE_TS, '--input-type=module', '-e', code], {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const sleepPid = await new Promise<number>((resolve) =>
      asker.stdout.once('data', (b: Buffer) => resolve(Number(b.toString().trim()))),
    );
    const shell = parentOf(sleepPid);
    const host = parentOf(shell);
    expect(cmdline(host)).toContain('spawn-host.mjs');
    expect(parentOf(host)).toBe(asker.pid);
    asker.kill('SIGKILL');
    expect(await gone(sleepPid)).toBe(true);
    expect(await gone(host)).toBe(true);
  });
});
