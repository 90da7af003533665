import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Config } from '../../../src/config.ts';
import { importCommit } from '../../../src/executor/workspace/import-commit.ts';
import { mirrorDir } from '../../../src/executor/workspace/mirror.ts';
import { withStepRepo } from '../../../src/executor/workspace/step-repo.ts';
import { createKeys } from '../../../src/store/keys.ts';

const root = mkdtempSync(join(tmpdir(), 'sy-import-'));
const ctx = { config: { WORKSPACE_DIR: join(root, 'ws') } as Config, keys: createKeys('t-import') };
const env = { PATH: process.env.PATH ?? '', HOME: root, GIT_CONFIG_GLOBAL: '/dev/null' };
const git = (cwd: string, ...a: string[]) => execFileSync('git', a, { cwd, env, encoding: 'utf8' }).trim();

/** A checkout with one commit, as a command would leave it. */
function checkout(name: string): { dir: string; sha: string } {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q');
  writeFileSync(join(dir, 'a.txt'), `${name}\n`);
  git(dir, 'add', '-A');
  git(dir, '-c', 'user.name=x', '-c', 'user.email=x@x', 'commit', '-qm', name);
  return { dir, sha: git(dir, 'rev-parse', 'HEAD') };
}

describe('importing a checkout’s commit into the host’s mirror (issue 13, R-H4)', () => {
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('R-H4: the commit arrives in the mirror under the ticket’s ref, objects checked', async () => {
    const c = checkout('plain');
    await importCommit(ctx, 'acme/web', c.dir, 'T1', c.sha);
    expect(git(mirrorDir(ctx, 'acme/web'), 'rev-parse', 'refs/sy/tickets/T1')).toBe(c.sha);
  });

  it('R-H4: a checkout whose object store borrows another repository’s objects (alternates) or links out is refused', async () => {
    const other = checkout('other-ticket');
    const a = checkout('with-alternates');
    writeFileSync(join(a.dir, '.git/objects/info/alternates'), `${join(other.dir, '.git/objects')}\n`);
    await expect(importCommit(ctx, 'acme/web', a.dir, 'T2', a.sha)).rejects.toThrow(/alternates/);
    const b = checkout('with-link');
    symlinkSync(join(other.dir, '.git/objects/pack'), join(b.dir, '.git/objects/xx'));
    await expect(importCommit(ctx, 'acme/web', b.dir, 'T3', b.sha)).rejects.toThrow(/links out/);
    const c = checkout('gitfile');
    rmSync(join(c.dir, '.git'), { recursive: true, force: true });
    writeFileSync(join(c.dir, '.git'), `gitdir: ${join(other.dir, '.git')}\n`);
    await expect(importCommit(ctx, 'acme/web', c.dir, 'T4', other.sha)).rejects.toThrow(/not a directory/);
    await expect(importCommit(ctx, 'acme/web', other.dir, 'T5', 'HEAD')).rejects.toThrow(/not a commit id/);
  });

  it('R-H4: a loose object that links to another ticket’s, or a FIFO, anywhere in the store is refused, and nothing of it reaches the mirror', async () => {
    const other = checkout('secret-ticket');
    const secret = git(other.dir, 'rev-parse', 'HEAD:a.txt');
    const c = checkout('borrower');
    // The other ticket's blob, named from this checkout's store by a link at the loose-object level.
    mkdirSync(join(c.dir, '.git/objects', secret.slice(0, 2)), { recursive: true });
    symlinkSync(
      join(other.dir, '.git/objects', secret.slice(0, 2), secret.slice(2)),
      join(c.dir, '.git/objects', secret.slice(0, 2), secret.slice(2)),
    );
    const tree = execFileSync('git', ['mktree'], {
      cwd: c.dir,
      env,
      input: `100644 blob ${secret}\tstolen.txt\n`,
      encoding: 'utf8',
    }).trim();
    const stolen = git(c.dir, '-c', 'user.name=x', '-c', 'user.email=x@x', 'commit-tree', tree, '-m', 'take');
    await expect(importCommit(ctx, 'acme/web', c.dir, 'T7', stolen)).rejects.toThrow(
      new RegExp(`links out \\(${secret.slice(0, 2)}/${secret.slice(2)}\\)`),
    );
    expect(() => git(mirrorDir(ctx, 'acme/web'), 'cat-file', '-e', secret)).toThrow();

    const f = checkout('with-fifo');
    mkdirSync(join(f.dir, '.git/objects/ab'), { recursive: true });
    execFileSync('mkfifo', [join(f.dir, '.git/objects/ab', 'c'.repeat(38))]);
    await expect(importCommit(ctx, 'acme/web', f.dir, 'T8', f.sha)).rejects.toThrow(/holds a FIFO/);
  });

  it('R-H4: a commit id the checkout does not hold fails with git’s words, and no ref lands in the mirror', async () => {
    const c = checkout('lacking');
    const missing = 'f'.repeat(40);
    await expect(importCommit(ctx, 'acme/web', c.dir, 'T6', missing)).rejects.toThrow(
      new RegExp(`git fetch failed \\(exit \\d+\\): .*${missing}`),
    );
    expect(() =>
      git(mirrorDir(ctx, 'acme/web'), 'rev-parse', '--verify', '--quiet', 'refs/sy/tickets/T6'),
    ).toThrow();
    // The scratch repository went with the failure.
    expect(readdirSync(join(ctx.config.WORKSPACE_DIR, 't-import', '.mirrors', '.tmp'))).toEqual([]);
  });

  it('issue 45: the store is read folder by folder with a bound on nesting, and a work-in-progress step imported into a step repository never reaches the mirror', async () => {
    const deep = checkout('deep-store');
    mkdirSync(join(deep.dir, '.git/objects', ...Array.from({ length: 12 }, (_, i) => `d${i}`)), {
      recursive: true,
    });
    await expect(importCommit(ctx, 'acme/web', deep.dir, 'T9', deep.sha)).rejects.toThrow(
      /nests folders deeper than 8/,
    );

    const wip = checkout('wip-step');
    const kept = await withStepRepo(ctx, 'acme/web', async (stepRepo) => {
      await importCommit(ctx, 'acme/web', wip.dir, 'T10', wip.sha, 'refs/sy/wip/T10', stepRepo);
      return git(stepRepo, 'rev-parse', 'refs/sy/wip/T10');
    });
    expect(kept).toBe(wip.sha);
    expect(() => git(mirrorDir(ctx, 'acme/web'), 'cat-file', '-e', wip.sha)).toThrow();
    expect(readdirSync(join(ctx.config.WORKSPACE_DIR, 't-import', '.mirrors', '.tmp'))).toEqual([]);
  });
});
