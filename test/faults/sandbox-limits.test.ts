import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitNotes } from '../../src/executor/sandbox/sandbox-command.ts';
import { hostProcessesWith, SMALL, sandboxed, tempCheckout } from './sandbox-kit.ts';

const note = (r: Parameters<typeof limitNotes>[0]) => limitNotes(r, SMALL, 1).join('\n');

describe('R-H3: a sandboxed command is confined and capped (real bubblewrap)', () => {
  let root: string;
  let checkout: string;
  let other: string;
  beforeAll(() => {
    root = tempCheckout();
    checkout = join(root, 'T1');
    other = join(root, 'T2');
    mkdirSync(checkout);
    mkdirSync(other);
    writeFileSync(join(checkout, 'README.md'), 'mine\n');
    writeFileSync(join(other, 'secret.txt'), 'OTHER-TICKET-SECRET\n');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('R-H3: nothing it starts survives its time-out: setsid, nohup and a double fork die with the sandbox', async () => {
    const m = `${process.pid}${Date.now() % 1000}`;
    const r = await sandboxed(
      checkout,
      `setsid sleep 901.${m} & nohup sleep 902.${m} >/dev/null 2>&1 & (sleep 903.${m} &) ; bash -c "(setsid nohup sleep 904.${m} &) &"; sleep 60`,
      { timeoutMs: 1_500 },
    );
    expect(r.timedOut).toBe(true);
    expect(r.limits).toContain('time');
    expect(note(r)).toContain('limit reached: time');
    expect(hostProcessesWith(`.${m}`)).toEqual([]);
  });

  it('R-H3: a background process does not outlive a command that ended normally', async () => {
    const m = `${process.pid}${(Date.now() + 7) % 1000}`;
    const r = await sandboxed(checkout, `setsid nohup sleep 905.${m} >/dev/null 2>&1 & echo started`);
    expect(r.exitCode).toBe(0);
    expect(r.output).toContain('started');
    expect(hostProcessesWith(`.${m}`)).toEqual([]);
  });

  it('R-H3: the memory cap stops a command with a clear error', async () => {
    const r = await sandboxed(checkout, 'tail /dev/zero; echo "exit=$?"');
    expect(r.limits).toContain('memory');
    expect(note(r)).toMatch(/limit reached: memory — .*128 MB \(SANDBOX_MEMORY_MB\)/);
  });

  it('R-H3: the process cap stops a fork bomb with a clear error', async () => {
    const r = await sandboxed(checkout, 'for i in $(seq 200); do sleep 5 & done; wait', { timeoutMs: 6_000 });
    expect(r.limits).toContain('processes');
    expect(note(r)).toMatch(/limit reached: processes — .*48 processes \(SANDBOX_PIDS\)/);
  });

  it('R-H3: the checkout’s disk cap stops one big file and many smaller ones, with a clear error', async () => {
    const big = await sandboxed(checkout, 'head -c 40M /dev/zero > big.bin; echo "exit=$?"');
    expect(big.limits).toContain('disk');
    expect(note(big)).toMatch(/limit reached: disk — .*32 MB \(SANDBOX_DISK_MB\)/);
    rmSync(join(checkout, 'big.bin'), { force: true });
    const many = await sandboxed(checkout, 'for i in 1 2 3; do head -c 15M /dev/zero > part$i.bin; done');
    expect(many.limits).toContain('disk');
    for (const i of [1, 2, 3]) rmSync(join(checkout, `part${i}.bin`), { force: true });
  });

  it('R-H3: a writable folder bound beside a read-only checkout (a screenshot’s output) counts towards the disk cap', async () => {
    const out = join(root, 'shot-out');
    mkdirSync(out);
    const r = await sandboxed(
      checkout,
      'for i in 1 2 3; do head -c 15M /dev/zero > /opt/out/part$i.bin; done',
      {
        writable: false,
        binds: [{ host: out, inside: '/opt/out', writable: true }],
      },
    );
    expect(r.limits).toContain('disk');
    expect(r.diskBytes).toBeGreaterThan(32 * 1024 * 1024);
    rmSync(out, { recursive: true, force: true });
  });

  it('R-H3: /tmp is a capped tmpfs: filling it is a clear error', async () => {
    const r = await sandboxed(checkout, 'head -c 40M /dev/zero > /tmp/fill; echo "exit=$?"');
    expect(r.limits).toContain('tmp');
    expect(note(r)).toMatch(/limit reached: disk space — \/tmp and HOME hold at most 16 MB/);
  });

  it('R-H3: /dev holds no more than /tmp: its shm is capped, the rest read-only, and /dev/null still works', async () => {
    const r = await sandboxed(
      checkout,
      [
        'head -c 40M /dev/zero > /dev/shm/fill; echo "shm=$?"',
        'echo x > /dev/fill 2>/dev/null; echo "dev=$?"',
        'echo x > /dev/null; echo "null=$?"',
      ].join('\n'),
    );
    expect(r.output).toMatch(/shm=1/);
    expect(r.output).toMatch(/dev=[1-9]/);
    expect(r.output).toContain('null=0');
    expect(r.limits).toContain('tmp');
  });

  it('R-H3: it cannot write outside its checkout nor read another ticket’s checkout', async () => {
    const r = await sandboxed(
      checkout,
      [
        'for f in /usr/pwned /usr/bin/pwned /etc/passwd; do echo x >> $f 2>/dev/null && echo "WROTE $f"; done',
        // The sandbox's own root is a throw-away tmpfs: this lands there, never beside the checkout.
        'echo x > /workspace/../pwned.txt',
        // Kernel settings are the host's: the same value written back must still be refused.
        'cat /proc/sys/vm/swappiness > /proc/sys/vm/swappiness 2>/dev/null && echo "WROTE /proc/sys"',
        `echo x > ${other}/pwned 2>/dev/null && echo "WROTE other"`,
        `cat ${other}/secret.txt 2>/dev/null; ls ${root} 2>/dev/null`,
        'find / -name secret.txt -not -path "/proc/*" 2>/dev/null',
        'echo ok > /workspace/mine.txt && echo "WROTE own"',
      ].join('\n'),
    );
    expect(r.output).not.toMatch(/WROTE \/|WROTE other/);
    expect(r.output).not.toContain('OTHER-TICKET-SECRET');
    expect(r.output).not.toContain('secret.txt');
    expect(r.output).toContain('WROTE own');
    expect(readFileSync(join(checkout, 'mine.txt'), 'utf8')).toBe('ok\n');
    expect(existsSync(join(other, 'pwned'))).toBe(false);
    expect(existsSync(join(root, 'pwned.txt'))).toBe(false);
  });

  it('R-H3: it sees no other process, so no other environment (the bot’s secrets included)', async () => {
    process.env.GITHUB_TOKEN = 'ghp_sandbox_limits_secret';
    const r = await sandboxed(
      checkout,
      'cat /proc/1/environ; tr "\\0" "\\n" < /proc/$PPID/environ; for f in /proc/[0-9]*/environ; do cat $f; done; echo; ps -e -o pid=,comm=',
    );
    delete process.env.GITHUB_TOKEN;
    expect(r.output).not.toContain('ghp_sandbox_limits_secret');
    const procs = r.output.split('\n').filter((l) => /^\s*\d+ \S+$/.test(l));
    expect(procs.length).toBeGreaterThan(0);
    expect(procs.length).toBeLessThan(8);
    expect(procs.join('\n')).not.toMatch(/node|vitest|redis/);
  });

  it('R-G4: a read-only profile’s command cannot modify the checkout', async () => {
    const r = await sandboxed(
      checkout,
      'echo pwned >> README.md; touch new.txt; rm -f README.md; echo done',
      {
        writable: false,
      },
    );
    expect(r.output).toMatch(/Read-only file system/);
    expect(readFileSync(join(checkout, 'README.md'), 'utf8')).toBe('mine\n');
    expect(existsSync(join(checkout, 'new.txt'))).toBe(false);
  });
});
