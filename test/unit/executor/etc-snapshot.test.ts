import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  utimesSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NODE_TS, nodeCacheEnv } from '../../kit/source-node.ts';

const MODULE = join(import.meta.dirname, '../../../src/executor/sandbox/etc-snapshot.ts');

/** `etcSnapshot()` in a process of its own, with `tmp` as its TMPDIR: the folder it answers. */
function snapshotIn(tmp: string): string {
  const script = `const { etcSnapshot } = await import(${JSON.stringify(MODULE)}); console.log(etcSnapshot());`;
  const r = spawnSync(process.execPath, [...NODE_TS, '--input-type=module', '-e', script], {
    env: { PATH: process.env.PATH ?? '', TMPDIR: tmp, ...nodeCacheEnv() },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`etcSnapshot failed: ${r.stderr}`);
  return r.stdout.trim();
}

const uid = process.getuid?.() ?? 0;

describe('the sandbox’s /etc: one copy per machine, user and state of /etc (R-H3)', () => {
  let tmp: string;
  let base: string;
  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'sy-etc-test-'));
    base = join(tmp, `switchyard-etc-user-${uid}`);
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  it('is made once and shared: a second process finds the same folder, with the allowed files and not the secrets', () => {
    const first = snapshotIn(tmp);
    expect(first.startsWith(`${base}/`)).toBe(true);
    expect(first.endsWith('/etc')).toBe(true);
    expect(snapshotIn(tmp)).toBe(first);
    const names = readdirSync(first);
    expect(names).toContain('passwd');
    for (const secret of ['shadow', 'gshadow', 'ssh', 'sudoers']) expect(names).not.toContain(secret);
    expect(existsSync(join(first, 'ssl', 'private'))).toBe(false);
    // Only the finished copy is there: nothing half-built, and the folder is this user's alone.
    expect(readdirSync(base)).toHaveLength(1);
  });

  it('a shared folder open to others, another user’s or a link is not trusted: the process copies its own and removes it at exit', () => {
    mkdirSync(base, { mode: 0o700 });
    chmodSync(base, 0o777);
    const open = snapshotIn(tmp);
    expect(open.startsWith(`${base}/`)).toBe(false);
    expect(existsSync(open)).toBe(false);
    expect(readdirSync(base)).toEqual([]);

    if (uid === 0) {
      // Another user's folder (as root the test can make one).
      chmodSync(base, 0o700);
      chownSync(base, 65534, 65534);
      expect(snapshotIn(tmp).startsWith(`${base}/`)).toBe(false);
      expect(readdirSync(base)).toEqual([]);
    }

    rmSync(base, { recursive: true });
    const elsewhere = join(tmp, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o700 });
    symlinkSync(elsewhere, base);
    const linked = snapshotIn(tmp);
    expect(linked.startsWith(`${base}/`)).toBe(false);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('half-built copies go after ten minutes and copies of earlier states of /etc after a week; newer ones stay', () => {
    mkdirSync(base, { mode: 0o700 });
    const at = (path: string, minutes: number) => {
      mkdirSync(join(path, 'etc'), { recursive: true });
      const then = new Date(Date.now() - minutes * 60_000);
      utimesSync(path, then, then);
      return path;
    };
    const abandoned = at(join(base, 'building-old'), 11);
    const building = at(join(base, 'building-recent'), 1);
    const lastMonth = at(join(base, 'a'.repeat(32)), 8 * 24 * 60);
    const lastWeek = at(join(base, 'b'.repeat(32)), 6 * 24 * 60);
    const made = snapshotIn(tmp);
    expect(made.startsWith(`${base}/`)).toBe(true);
    expect([abandoned, building, lastMonth, lastWeek].map(existsSync)).toEqual([false, true, false, true]);
  });

  it('a process whose copy went makes it again at its next command', () => {
    const script = [
      `const { etcSnapshot } = await import(${JSON.stringify(MODULE)});`,
      `const { rmSync, existsSync } = await import('node:fs');`,
      'const first = etcSnapshot();',
      `rmSync(first, { recursive: true });`,
      'const again = etcSnapshot();',
      'console.log(JSON.stringify({ first, again, there: existsSync(again + "/passwd") }));',
    ].join('\n');
    const r = spawnSync(process.execPath, [...NODE_TS, '--input-type=module', '-e', script], {
      env: { PATH: process.env.PATH ?? '', TMPDIR: tmp, ...nodeCacheEnv() },
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout) as { first: string; again: string; there: boolean };
    expect(out.again.startsWith(`${base}/`)).toBe(true);
    expect(out.there).toBe(true);
  });
});
