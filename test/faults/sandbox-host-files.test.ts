import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkWorkspace } from '../../src/doctor/check-workspace.ts';
import { sayIn } from '../../src/doctor/doctor-text.ts';
import { localGit } from '../../src/executor/sandbox/local-git.ts';
import { commandOwner } from '../../src/executor/sandbox/probe-sandbox.ts';
import { runOnCheckout } from '../../src/executor/sandbox/sandbox-command.ts';
import type { SandboxConfig } from '../../src/executor/sandbox/sandbox-settings.ts';
import { closeWorkspace, openWorkspaceFolders } from '../../src/executor/workspace/close-workspace.ts';
import { workspaceStepId } from '../../src/executor/workspace/workspace-step-record.ts';
import { executorFlow, startWorld, type World } from '../integration/executor/harness.ts';
import { localMessage, onlyTicket, send } from '../integration/routing/helpers.ts';
import { waitFor } from '../kit/app.ts';
import { toolCalls } from '../kit/fake-llm.ts';
import { sandboxed, tempCheckout } from './sandbox-kit.ts';

const run = (command: string) => toolCalls(['run_command', { command }]);

/** Every entry under `dir` with a set-user-id or set-group-id bit, links left out. */
function setIdEntries(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const st = lstatSync(join(dir, name));
    if (!st.isSymbolicLink() && st.mode & 0o6000) found.push(name);
  }
  return found;
}

describe('issue 45: what a command leaves on the host (real bubblewrap)', () => {
  let root: string;
  beforeAll(() => {
    root = tempCheckout();
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('issue 45: after chmod 4755 and 2755 in a command no file or folder of the checkout or a writable bind keeps a set-id bit, and a link to a host set-id program leaves it alone', async () => {
    const checkout = join(root, 'setid');
    const out = join(root, 'setid-out');
    mkdirSync(checkout);
    mkdirSync(out);
    const hostProgram = '/usr/bin/gpasswd';
    const before = statSync(hostProgram).mode;
    const r = await sandboxed(
      checkout,
      [
        'cp /bin/cat sucat && chmod 4755 sucat',
        'mkdir -p deep/er && cp /bin/cat deep/er/sgcat && chmod 6755 deep/er/sgcat',
        'mkdir shared && chmod 2775 shared',
        `ln -s ${hostProgram} link`,
        'cp /bin/cat /opt/out/bound && chmod 4755 /opt/out/bound',
        'ls -l sucat deep/er/sgcat /opt/out/bound',
      ].join(' && '),
      { binds: [{ host: out, inside: '/opt/out', writable: true }] },
    );
    expect(r.exitCode).toBe(0);
    // The command did set them (as the sandbox saw it): the host took them off afterwards.
    expect(r.output).toMatch(/-rwsr-xr-x .* sucat/);
    expect(setIdEntries(checkout)).toEqual([]);
    expect(setIdEntries(out)).toEqual([]);
    expect(statSync(join(checkout, 'sucat')).mode & 0o777).toBe(0o755);
    expect(statSync(join(checkout, 'shared')).mode & 0o777).toBe(0o775);
    expect(statSync(hostProgram).mode).toBe(before);
  });

  describe('issue 45: the disk cap is enforced, not only measured', () => {
    const config: SandboxConfig = {
      SANDBOX: 'bwrap',
      SANDBOX_NETWORK: 'none',
      SANDBOX_MEMORY_MB: 256,
      SANDBOX_PIDS: 64,
      SANDBOX_DISK_MB: 16,
      SANDBOX_DISK_INODES: 400,
      SANDBOX_TMP_MB: 16,
    };
    const run = (dir: string, command: string, writable = true) =>
      runOnCheckout(config, { dir, home: join(root, 'home') }, ['bash', '-c', command], {
        writable,
        timeoutMs: 20_000,
      });

    it('issue 45: past the disk cap the next command, commit and verification are refused saying how much is used and how to get back under; a plain rm runs and then commands run again', async () => {
      const dir = join(root, 'disk');
      mkdirSync(dir);
      const filled = await run(dir, 'fallocate -l 12M a && fallocate -l 12M b && echo filled');
      expect(filled.ok && filled.result.output).toContain('filled');
      expect(filled.ok && filled.result.limits).toContain('disk');

      const next = await run(dir, 'echo ran > ran.txt');
      expect(next.ok).toBe(false);
      const refusal = next.ok ? '' : next.refusal;
      expect(refusal).toMatch(/over its disk cap\. It holds 2[45] MB in \d+ files/);
      expect(refusal).toContain('at most 16 MB (SANDBOX_DISK_MB)');
      expect(refusal).toContain('`rm`');
      expect(readdirSync(dir)).not.toContain('ran.txt');
      // Commits and verifications stage and read in the sandbox, writable: refused the same way.
      await expect(
        localGit(config, { dir, home: root }, 'bot').run(['add', '-A'], { writable: true }),
      ).rejects.toThrow(/over its disk cap/);
      // Anything but a plain rm is refused, however it starts.
      for (const sneaky of [
        'rm -f a; fallocate -l 20M c',
        'rm -f a && echo x > y',
        'rm -f $(echo a)',
        'rm "a"',
      ])
        expect((await run(dir, sneaky)).ok).toBe(false);
      // A read-only command writes nothing, so it still runs.
      expect((await run(dir, 'ls', false)).ok).toBe(true);

      const removed = await run(dir, 'rm -f b');
      expect(removed.ok && removed.result.exitCode).toBe(0);
      const again = await run(dir, 'echo ran > ran.txt');
      expect(again.ok && again.result.exitCode).toBe(0);
      expect(readdirSync(dir)).toContain('ran.txt');
    });

    it('issue 45: inodes count — empty files past SANDBOX_DISK_INODES refuse the next command until they are deleted', async () => {
      const dir = join(root, 'inodes');
      mkdirSync(dir);
      const made = await run(dir, 'mkdir many && cd many && seq 1 500 | xargs touch && echo made');
      expect(made.ok && made.result.output).toContain('made');
      expect(made.ok && made.result.limits).toContain('disk');
      const next = await run(dir, 'echo ran');
      expect(next.ok).toBe(false);
      expect(next.ok ? '' : next.refusal).toContain('400 files, folders and links (SANDBOX_DISK_INODES)');
      expect((await run(dir, 'rm -rf many/*')).ok).toBe(true);
      const again = await run(dir, 'echo ran');
      expect(again.ok && again.result.output).toContain('ran');
    });
  });
});

describe('issue 45: through an executor turn, checkouts are closed to other users and the disk cap holds', () => {
  let w: World;
  beforeEach(async () => {
    w = await startWorld({ SANDBOX_DISK_MB: '32', SANDBOX_NETWORK: 'none' });
  });
  afterEach(async () => {
    await w?.close();
  });

  it('issue 45: after chmod 4755 no file of the checkout keeps the bit, no other user reads the checkout, and past the disk cap the next command is refused', async () => {
    const flow = executorFlow(w.llm, [
      (_r, card) => toolCalls(['reply', { to: card, text: `Working on acme/web for ${card}.` }]),
      () => run('cp /bin/cat sucat && chmod 4755 sucat && ls -l sucat'),
      () => run('fallocate -l 20M a.bin && fallocate -l 20M b.bin && echo filled'),
      () => run('echo more > more.txt'),
      () => run('rm -f a.bin b.bin'),
      () => run('echo more > more.txt && echo wrote'),
    ]);
    await send(w.app.ctx, localMessage('Please check the build of the web app'));
    await flow.done();
    expect(flow.results[1]?.join()).toMatch(/-rwsr-xr-x .* sucat/);
    const workspaces = join(w.root, 'workspaces');
    const checkout = readdirSync(join(workspaces, w.app.ctx.keys.prefix))
      .map((n) => join(workspaces, w.app.ctx.keys.prefix, n))
      .find((d) => existsSync(join(d, 'sucat')));
    if (!checkout) throw new Error('no checkout holds the command’s file');
    expect(setIdEntries(checkout)).toEqual([]);
    // Every folder the workspace code made is 0700, so no other local user reaches the checkout —
    // but WORKSPACE_DIR and the deployment's folder, which the sandbox uid passes through (0711).
    const passage = Boolean(await commandOwner(w.app.ctx.config));
    expect(await openWorkspaceFolders(workspaces, w.app.ctx.keys.prefix, passage)).toEqual([]);
    expect(statSync(workspaces).mode & 0o777).toBe(passage ? 0o711 : 0o700);
    expect(statSync(checkout).mode & 0o777).toBe(0o700);
    const asNobody = spawnSync(
      'setpriv',
      ['--reuid=65534', '--regid=65534', '--clear-groups', '--', 'cat', join(checkout, 'README.md')],
      { encoding: 'utf8' },
    );
    expect(asNobody.stdout).not.toContain('# web');
    expect(asNobody.stderr).toMatch(/Permission denied/);
    // Past the cap: the next command is refused with what to do, a plain rm runs, then work goes on.
    expect(flow.results[2]?.join()).toContain('limit reached: disk');
    expect(flow.results[3]?.join()).toMatch(/refused: the checkout is over its disk cap\. It holds 4\d MB/);
    expect(existsSync(join(checkout, 'more.txt'))).toBe(true);
    expect(flow.results[5]?.join()).toContain('wrote');
    // Work-in-progress steps were recorded, through step repositories deleted after each: nothing of
    // them (the program the command copied in) is in the shared mirror.
    const ticket = await onlyTicket(w.app.ctx);
    await waitFor(async () => Boolean(await workspaceStepId(w.app.ctx, ticket)), 'a recorded step');
    const mirror = join(workspaces, w.app.ctx.keys.prefix, '.mirrors');
    const blob = execFileSync('git', ['hash-object', '--no-filters', join(checkout, 'sucat')], {
      encoding: 'utf8',
    }).trim();
    const inMirror = spawnSync('git', ['cat-file', '-e', blob], {
      env: { GIT_DIR: join(mirror, 'acme', 'web.git') },
    });
    expect(inMirror.status).not.toBe(0);
    expect(readdirSync(join(mirror, '.tmp'))).toEqual([]);
  });

  it('issue 45: folders an older release left open are closed at start-up, and the doctor reports them until then', async () => {
    const workspaces = join(w.root, 'workspaces');
    const checkout = join(workspaces, w.app.ctx.keys.prefix, 'T99');
    const mirror = join(workspaces, w.app.ctx.keys.prefix, '.mirrors', 'acme', 'web.git');
    mkdirSync(checkout, { recursive: true, mode: 0o755 });
    mkdirSync(mirror, { recursive: true, mode: 0o755 });
    for (const d of [workspaces, join(workspaces, w.app.ctx.keys.prefix), checkout, mirror])
      chmodSync(d, 0o755);
    const say = sayIn('en');
    const before = await checkWorkspace(w.app.ctx.config, say);
    expect(before[0]?.status).toBe('problem');
    expect(before[0]?.detail).toMatch(/^\d+ folders under WORKSPACE_DIR are open to group or other users/);
    // A folder of WORKSPACE_DIR that is not this deployment's may not be the bot's: left as it is.
    const beside = join(workspaces, 'someone-else');
    mkdirSync(beside);
    chmodSync(beside, 0o755);
    await closeWorkspace(w.app.ctx);
    expect(statSync(beside).mode & 0o777).toBe(0o755);
    const passage = Boolean(await commandOwner(w.app.ctx.config));
    expect(await openWorkspaceFolders(workspaces, w.app.ctx.keys.prefix, passage)).toEqual([]);
    // Issue 45: the sandbox uid passes through WORKSPACE_DIR and the deployment's folder, no further.
    const through = passage ? 0o711 : 0o700;
    expect(statSync(workspaces).mode & 0o777).toBe(through);
    expect(statSync(join(workspaces, w.app.ctx.keys.prefix)).mode & 0o777).toBe(through);
    expect(statSync(checkout).mode & 0o777).toBe(0o700);
    expect(statSync(mirror).mode & 0o777).toBe(0o700);
    expect((await checkWorkspace(w.app.ctx.config, say))[0]?.status).toBe('ok');
  });
});
