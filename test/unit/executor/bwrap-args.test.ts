import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bwrapArgs, SANDBOX_CHECKOUT } from '../../../src/executor/sandbox/bwrap-args.ts';
import { etcSnapshot } from '../../../src/executor/sandbox/etc-snapshot.ts';

const spec = (writable: boolean) =>
  bwrapArgs({
    checkout: '/data/ws/sy/T1',
    writable,
    network: 'none',
    tmpBytes: 1 << 20,
    argv: ['bash', '-c', 'true'],
    env: { PATH: '/usr/bin', HOME: '/home/sandbox' },
  });

/** The value after `flag` for each of its occurrences. */
const argsOf = (args: string[], flag: string) =>
  args.flatMap((a, i) => (a === flag ? [`${args[i + 1]} ${args[i + 2] ?? ''}`.trim()] : []));

describe('R-H3: the bubblewrap argument vector', () => {
  it('R-H3: every namespace is new, no capability is kept, the environment is only what is given', () => {
    const a = spec(true);
    for (const f of ['--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-net'])
      expect(a).toContain(f);
    expect(a).toEqual(
      expect.arrayContaining(['--die-with-parent', '--new-session', '--clearenv', '--disable-userns']),
    );
    expect(a[a.indexOf('--cap-drop') + 1]).toBe('ALL');
    expect(argsOf(a, '--setenv')).toEqual(['PATH /usr/bin', 'HOME /home/sandbox']);
    expect(a.slice(a.indexOf('--') + 1)).toEqual(['bash', '-c', 'true']);
  });

  it('R-H3/R-G4: only the checkout is bound from the host’s data, at /workspace, read-only for read-only profiles', () => {
    expect(argsOf(spec(true), '--bind')).toEqual([`/data/ws/sy/T1 ${SANDBOX_CHECKOUT}`]);
    expect(argsOf(spec(false), '--bind')).toEqual([]);
    expect(argsOf(spec(false), '--ro-bind')).toContain(`/data/ws/sy/T1 ${SANDBOX_CHECKOUT}`);
    const sources = [...argsOf(spec(true), '--ro-bind'), ...argsOf(spec(true), '--bind')].map(
      (s) => s.split(' ')[0],
    );
    expect(sources.filter((s) => s?.startsWith('/data'))).toEqual(['/data/ws/sy/T1']);
  });

  it('R-H3: a fresh /proc with /proc/sys read-only over it, private tmpfs /dev/shm, /tmp and HOME of the given size, /dev read-only', () => {
    const a = spec(true);
    expect(a.indexOf('--ro-bind', a.indexOf('--proc'))).toBe(a.indexOf('/proc/sys') - 1);
    expect(argsOf(a, '--size')).toEqual([`${1 << 20} --tmpfs`, `${1 << 20} --tmpfs`, `${1 << 20} --tmpfs`]);
    expect(a).toEqual(expect.arrayContaining(['/dev/shm', '/tmp', '/home/sandbox']));
    // After /dev/shm is mounted in it, /dev itself goes read-only.
    expect(a.indexOf('--remount-ro')).toBeGreaterThan(a.indexOf('/dev/shm'));
    expect(a[a.indexOf('--remount-ro') + 1]).toBe('/dev');
  });

  it('R-H3: /etc is an allow-listed copy: no shadow, no gshadow, no SSH keys, no TLS private keys', () => {
    const etc = etcSnapshot();
    const names = readdirSync(etc);
    expect(names).toContain('passwd');
    for (const secret of ['shadow', 'gshadow', 'ssh', 'sudoers', 'npmrc'])
      expect(names).not.toContain(secret);
    expect(existsSync(join(etc, 'ssl', 'private'))).toBe(false);
    expect(argsOf(spec(true), '--ro-bind')).toContain(`${etc} /etc`);
  });
});
