import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evalMain } from '../../../src/eval/cli.ts';
import { evalSandboxConfig } from '../../../src/eval/run-check.ts';
import { loadTask } from '../../../src/eval/task.ts';
import { gitIn } from '../../../src/eval/task-repo.ts';
import { validateTask } from '../../../src/eval/validate.ts';

const FIXTURES = join(import.meta.dirname, '../../fixtures/eval/tasks');
const opts = { sandbox: evalSandboxConfig({}), checkTimeoutMs: 30_000 };
const validate = (id: string) => validateTask(loadTask(join(FIXTURES, id)), opts);

/** `npm run eval -- --validate`: each task's check, in the real sandbox, fails before and passes after. */
describe('eval task validation', () => {
  it('accepts a task whose check fails on repo/ and passes with solution.patch', async () => {
    const v = await validate('fixed');
    expect(v).toMatchObject({ id: 'fixed', ok: true });
    expect(v.afterSeconds).toBeTypeOf('number');
  });

  it('accepts a no-change task whose check passes on repo/ as it is', async () => {
    const v = await validate('unchanged');
    expect(v).toMatchObject({ id: 'unchanged', ok: true });
    expect(v.afterSeconds).toBeUndefined();
  });

  it('issue 47: validates a task whose repository ships as repo.bundle', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'switchyard-validate-bundle-')), 'fixed');
    try {
      cpSync(join(FIXTURES, 'fixed'), dir, { recursive: true });
      const repo = join(dir, 'repo');
      await gitIn(repo, dir, 'init', '-q');
      await gitIn(repo, dir, 'add', '-A');
      await gitIn(repo, dir, '-c', 'user.name=a', '-c', 'user.email=a@b.invalid', 'commit', '-qm', 'x');
      await gitIn(repo, dir, 'bundle', 'create', '-q', join(dir, 'repo.bundle'), 'HEAD');
      rmSync(repo, { recursive: true });
      const task = loadTask(dir);
      expect(task.repo.kind).toBe('bundle');
      expect(await validateTask(task, opts)).toMatchObject({ id: 'fixed', ok: true });
    } finally {
      rmSync(join(dir, '..'), { recursive: true, force: true });
    }
  });

  it('refuses a task whose check passes without the patch', async () => {
    expect(await validate('passes-without-patch')).toEqual({
      id: 'passes-without-patch',
      ok: false,
      reason: 'check passes on repo/ and tests/ without the patch (it proves nothing)',
      beforeSeconds: expect.any(Number),
    });
  });

  it('refuses a task whose patch does not apply, with git’s words', async () => {
    const v = await validate('patch-does-not-apply');
    expect(v.ok).toBe(false);
    expect(v.reason).toMatch(/^solution\.patch does not apply: error: patch failed: state\.txt:1/);
  });

  it('refuses a task whose check still fails with the patch', async () => {
    const v = await validate('fails-with-patch');
    expect(v.ok).toBe(false);
    expect(v.reason).toBe('check fails with the patch: exit 1');
  });

  it('runs the check in the sandbox: the host’s files are out of its sight', async () => {
    const root = join(FIXTURES, 'fixed');
    const task = { ...loadTask(root), check: `test -e ${JSON.stringify(root)} || grep -qx fixed state.txt` };
    // Unconfined, the host's task folder exists, so the check "passes" without the patch.
    const open = await validateTask(task, { ...opts, sandbox: evalSandboxConfig({ SANDBOX: 'none' }) });
    expect(open.reason).toBe('check passes on repo/ and tests/ without the patch (it proves nothing)');
    expect(await validateTask(task, opts)).toMatchObject({ ok: true });
  });

  it('runs no program a check wrote into the checkout’s .git on the host: a hook, fsmonitor or a filter (R-H3, R-H4)', async () => {
    const host = mkdtempSync(join(tmpdir(), 'switchyard-validate-plant-'));
    try {
      // Each program, run on the host, leaves pwned-<name> in a folder the sandbox cannot see.
      const prog = (name: string, then: string) =>
        `printf '#!/bin/sh\\ntouch ${host}/pwned-${name}\\n${then}\\n' > .git/${name} && chmod +x .git/${name}`;
      const plant = [
        'set -e',
        prog('fsmonitor', 'exit 1'),
        prog('smudge', 'cat'),
        prog('clean', 'cat'),
        'mkdir -p .git/hooks .git/info',
        prog('hooks/post-checkout', 'exit 0'),
        'git config core.fsmonitor ".git/fsmonitor"',
        'git config filter.x.smudge ".git/smudge"',
        'git config filter.x.clean ".git/clean"',
        "echo '* filter=x' > .git/info/attributes",
        '(grep -qx fixed state.txt || echo changed > state.txt)',
      ].join(' && ');
      const task = { ...loadTask(join(FIXTURES, 'fixed')), check: `(${plant}) && grep -qx fixed state.txt` };
      const v = await validateTask(task, opts);
      expect(readdirSync(host)).toEqual([]);
      // The verdict is the check's own, and passing with the patch says the plant ran in full there.
      expect(v).toMatchObject({ ok: true });
    } finally {
      rmSync(host, { recursive: true, force: true });
    }
  });

  it('npm run eval -- --validate prints a line per task and a summary, and exits 1 on any invalid task', async () => {
    const lines: string[] = [];
    const code = await evalMain(['--validate', '--tasks', FIXTURES], (l) => lines.push(l));
    expect(code).toBe(1);
    expect(lines[0]).toMatch(/^INVALID malformed: task\.yaml: channel: /);
    expect(lines).toContainEqual(
      expect.stringMatching(/^ok {6}fixed: fails without the patch \(.+ s\), passes with it/),
    );
    expect(lines).toContainEqual(expect.stringMatching(/^ok {6}unchanged: passes unchanged/));
    expect(lines).toContainEqual(expect.stringMatching(/^INVALID passes-without-patch: /));
    expect(lines).toContainEqual(expect.stringMatching(/^INVALID patch-does-not-apply: /));
    expect(lines).toContainEqual(expect.stringMatching(/^INVALID fails-with-patch: /));
    expect(lines.at(-1)).toMatch(/^6 tasks: 2 valid, 4 invalid — checks ran in the sandbox, [\d.]+ s$/);
  });

  it('exits 0 when every task is valid, and 2 without --validate', async () => {
    const out: string[] = [];
    expect(
      await evalMain(['--validate', '--tasks', FIXTURES, '--only', 'fixed,unchanged'], (l) => out.push(l)),
    ).toBe(0);
    expect(out.at(-1)).toMatch(/^2 tasks: 2 valid, 0 invalid/);
    expect(await evalMain([], () => {})).toBe(2);
  });
});
