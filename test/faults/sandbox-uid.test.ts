import { spawnSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_UID } from '../../src/config.ts';
import { checkSandbox } from '../../src/doctor/check-sandbox.ts';
import { sayIn } from '../../src/doctor/doctor-text.ts';
import { probeSandbox } from '../../src/executor/sandbox/probe-sandbox.ts';
import { giveToSandbox, type SandboxUser } from '../../src/executor/sandbox/sandbox-user.ts';
import { executorFlow, startWorld } from '../integration/executor/harness.ts';
import { localMessage, send } from '../integration/routing/helpers.ts';
import { toolCalls } from '../kit/fake-llm.ts';
import { SMALL, sandboxed, tempCheckout } from './sandbox-kit.ts';

const isRoot = process.getuid?.() === 0;
/** A uid no account has, as `SANDBOX_UID` would name. */
const USER: SandboxUser = { uid: 2_000_000_123, gid: 2_000_000_123 };

describe.runIf(isRoot)(
  'issue 45: commands run as a uid of their own where the bot is root (real bubblewrap)',
  () => {
    let root: string;
    let secret: string;
    beforeAll(() => {
      root = tempCheckout();
      // bwrap, run as the sandbox uid, walks to what it binds: the test's folder lets it through.
      chmodSync(root, 0o711);
      // A root-only file in a folder the sandbox binds read-only: readable by path, closed by mode.
      secret = join(root, 'secret');
      mkdirSync(secret, { mode: 0o755 });
      chmodSync(secret, 0o755);
      writeFileSync(join(secret, 'key'), 'ROOT-ONLY-KEY\n', { mode: 0o600 });
    });
    afterAll(() => rmSync(root, { recursive: true, force: true }));

    const run = async (checkout: string, command: string, user?: SandboxUser) =>
      sandboxed(checkout, command, {
        settings: { ...SMALL, ...(user ? { user } : {}) },
        binds: [{ host: secret, inside: '/opt/secret', writable: false }],
      });

    it('issue 45: a file a command makes in the checkout is the sandbox uid’s on the host, not root’s; the command is uid 0 inside its namespace and cannot read a root-only 0600 file bound into its view', async () => {
      const checkout = join(root, 'as-user');
      mkdirSync(checkout);
      await giveToSandbox(checkout, USER);
      const r = await run(
        checkout,
        'echo made > made.txt && mkdir -p deep && echo x > deep/f && id -u && cat /opt/secret/key; echo "read=$?"',
        USER,
      );
      expect(r.output).toMatch(/^0$/m);
      expect(r.exitCode).toBe(0);
      for (const made of ['made.txt', 'deep', 'deep/f']) {
        const st = lstatSync(join(checkout, made));
        expect([st.uid, st.gid]).toEqual([USER.uid, USER.gid]);
      }
      expect(r.output).toContain('Permission denied');
      expect(r.output).not.toContain('ROOT-ONLY-KEY');
      expect(r.output).toMatch(/read=1/);
    });

    it('issue 45: without a sandbox user (a non-root bot, or SANDBOX_UID=0) commands keep the bot’s uid, as before', async () => {
      const checkout = join(root, 'as-bot');
      mkdirSync(checkout);
      const r = await run(checkout, 'echo made > made.txt && cat /opt/secret/key');
      expect(r.exitCode).toBe(0);
      expect(lstatSync(join(checkout, 'made.txt')).uid).toBe(0);
      expect(r.output).toContain('ROOT-ONLY-KEY');
    });
  },
);

describe.runIf(isRoot)(
  'issue 45: through an executor turn, the checkout is SANDBOX_UID’s and host git still works',
  () => {
    it('issue 45: the checkout, a command’s file and write_file’s file (its new folders too) are the sandbox uid’s; the command appends to the tool’s file; commit_and_push pushes it; no other user reads the checkout; start-up and the doctor say which uid', async () => {
      const w = await startWorld({ SANDBOX_NETWORK: 'none' });
      try {
        const run = (command: string) => toolCalls(['run_command', { command }]);
        const flow = executorFlow(w.llm, [
          (_r, card) => toolCalls(['reply', { to: card, text: `Working on acme/web for ${card}.` }]),
          () => run('echo by-command > cmd.txt && id -u'),
          () => toolCalls(['write_file', { path: 'src/made/deep.ts', content: 'export const a = 1;\n' }]),
          () => run('echo "export const b = 2;" >> src/made/deep.ts && echo appended'),
          () => toolCalls(['commit_and_push', { message: 'Add deep' }]),
        ]);
        await send(w.app.ctx, localMessage('Please add a module to the web app'));
        await flow.done();
        const uid = DEFAULT_SANDBOX_UID;
        expect((await probeSandbox(w.app.ctx.config)).user).toEqual({ uid, gid: uid });
        expect(flow.results[1]?.join()).toMatch(/^exit 0\n[\s\S]*^0$/m);
        expect(flow.results[3]?.join()).toContain('appended');
        expect(flow.results[4]?.join()).toMatch(/^committed [0-9a-f]{12} and pushed (sy\/T\d+-\S+)/);
        const branch = /pushed (sy\/T\d+-\S+)/.exec(flow.results[4]?.join() ?? '')?.[1] ?? '';
        expect(w.repo.git('show', `${branch}:src/made/deep.ts`)).toBe(
          'export const a = 1;\nexport const b = 2;',
        );

        const workspaces = join(w.root, 'workspaces');
        const prefix = join(workspaces, w.app.ctx.keys.prefix);
        const checkout = readdirSync(prefix)
          .map((n) => join(prefix, n))
          .find((d) => readdirSync(d).includes('cmd.txt'));
        if (!checkout) throw new Error('no checkout holds the command’s file');
        for (const path of [
          '.',
          'README.md',
          '.git',
          '.git/index',
          'cmd.txt',
          'src/made',
          'src/made/deep.ts',
        ])
          expect([path, lstatSync(join(checkout, path)).uid]).toEqual([path, uid]);
        // Closed to other users: the sandbox uid passes WORKSPACE_DIR and the deployment's folder only.
        expect(statSync(checkout).mode & 0o777).toBe(0o700);
        expect([statSync(workspaces).mode & 0o777, statSync(prefix).mode & 0o777]).toEqual([0o711, 0o711]);
        const asNobody = spawnSync(
          'setpriv',
          ['--reuid=65534', '--regid=65534', '--clear-groups', '--', 'cat', join(checkout, 'README.md')],
          { encoding: 'utf8' },
        );
        expect(asNobody.stderr).toMatch(/Permission denied/);
        const [found] = await checkSandbox(w.app.ctx.config, sayIn('en'));
        expect(found?.detail).toContain(`commands run as uid ${uid} on the host (SANDBOX_UID)`);
      } finally {
        await w.close();
      }
    });
  },
);
