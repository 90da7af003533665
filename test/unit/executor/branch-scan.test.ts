import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { branchScans } from '../../../src/executor/workspace/branch-scan.ts';

const dir = mkdtempSync(join(tmpdir(), 'sy-scan-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd: dir,
    encoding: 'utf8',
  }).trim();

describe('issue 48: a done report reads the branch once for its checks and its look', () => {
  it('review: the changed tests and the patch, asked by the verification line and then the look, cost one run of each git command', async () => {
    git('init', '-q', '-b', 'main');
    writeFileSync(join(dir, 'add.test.js'), 'assert.equal(add(2, 3), 5);\n');
    git('add', '.');
    git('commit', '-qm', 'base');
    git('checkout', '-qb', 'work');
    writeFileSync(join(dir, 'add.test.js'), 'assert.ok(add(2, 3));\n');
    git('commit', '-qam', 'weaken');
    const ran: string[] = [];
    const g = {
      run: async (args: string[]) => {
        ran.push(args[0] ?? '');
        return git(...args);
      },
    };
    const head = git('rev-parse', 'HEAD');
    const scans = branchScans();
    // The verification line's scan, then the look's: the same call, the same head.
    const tests = await scans(g, 'main', head).tests();
    const look = scans(g, 'main', head);
    await look.changes();
    const { diff } = await look.patch();
    expect(await look.tests()).toBe(tests);
    expect(tests.map((t) => [t.path, t.kind, t.before, t.after])).toEqual([
      ['add.test.js', 'modified', 1, 1],
    ]);
    expect(tests[0]?.lines).toEqual(['- assert.equal(add(2, 3), 5);', '+ assert.ok(add(2, 3));']);
    expect(diff).toContain('+assert.ok(add(2, 3));');
    expect(ran.sort()).toEqual(['diff', 'diff', 'grep', 'merge-base']);
  });
});
