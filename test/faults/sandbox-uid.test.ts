import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_UID } from '../../src/config.ts';
import { checkSandbox } from '../../src/doctor/check-sandbox.ts';
import { sayIn } from '../../src/doctor/doctor-text.ts';
import { probeSandbox } from '../../src/executor/sandbox/probe-sandbox.ts';
import { runOnCheckout } from '../../src/executor/sandbox/sandbox-command.ts';
import { giveToSandbox, type SandboxUser } from '../../src/executor/sandbox/sandbox-user.ts';
import { executorFlow, startWorld } from '../integration/executor/harness.ts';
import { localMessage, send } from '../integration/routing/helpers.ts';
import { toolCalls } from '../kit/fake-llm.ts';
import { hostProcessesWith, SMALL, sandboxed, tcpProbe, tempCheckout } from './sandbox-kit.ts';

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

    it('issue 45: with egress, pasta (root) attaches to the network namespace the sandbox uid made', async () => {
      const checkout = join(root, 'egress');
      mkdirSync(checkout);
      await giveToSandbox(checkout, USER);
      const host = Object.values(networkInterfaces())
        .flat()
        .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
      const probes = [tcpProbe('169.254.169.254', 80), ...(host ? [tcpProbe(host, 6379)] : [])];
      const r = await sandboxed(
        checkout,
        ['cat /etc/resolv.conf && grep -q 198.18.0.2 /proc/net/fib_trie && echo addr-up', ...probes].join(
          '; ',
        ),
        { settings: { ...SMALL, network: 'egress', user: USER } },
      );
      expect(r.output).toContain('nameserver 198.18.0.1');
      expect(r.output).toContain('addr-up');
      // The blocking routes went in as before: the metadata address and the host are out of reach.
      expect(r.output).not.toContain('CONNECTED');
      expect(r.exitCode).toBe(0);
      // The namespace was bound onto a file for pasta (pasta, without CAP_SYS_PTRACE, may not open
      // the uid's /proc entry): neither that bind nor pasta outlives the command.
      expect(readFileSync('/proc/self/mountinfo', 'utf8')).not.toMatch(/switchyard-sandbox-\S+\/netns-/);
      expect(hostProcessesWith('--no-netns-quit')).toEqual([]);
    });

    it('issue 45: through runOnCheckout, a checkout the bot made before the switch is given over at its next command; where a folder above WORKSPACE_DIR lets no other user through, commands keep the bot’s uid and the probe says why', async () => {
      const config = (workspaceDir: string) =>
        ({
          SANDBOX: 'bwrap',
          SANDBOX_NETWORK: 'none',
          SANDBOX_MEMORY_MB: 256,
          SANDBOX_PIDS: 64,
          SANDBOX_DISK_MB: 64,
          SANDBOX_TMP_MB: 16,
          SANDBOX_UID: USER.uid,
          WORKSPACE_DIR: workspaceDir,
        }) as const;
      const append = (c: ReturnType<typeof config>, dir: string) =>
        runOnCheckout(c, { dir, home: root }, ['sh', '-c', 'echo more >> old.txt && echo new > new.txt'], {
          writable: true,
          timeoutMs: 20_000,
        });

      const open = config(join(root, 'open-ws'));
      const older = join(root, 'open-ws', 'p', 'T1');
      mkdirSync(join(older, 'sub'), { recursive: true, mode: 0o700 });
      writeFileSync(join(older, 'old.txt'), 'old\n', { mode: 0o644 });
      expect((await probeSandbox(open)).user).toEqual(USER);
      const ran = await append(open, older);
      expect(ran.ok && ran.result.exitCode).toBe(0);
      for (const path of ['.', 'sub', 'old.txt', 'new.txt'])
        expect(lstatSync(join(older, path)).uid).toBe(USER.uid);
      expect(statSync(join(root, 'open-ws', 'p')).mode & 0o011).toBe(0o011);

      const closed = join(root, 'closed');
      mkdirSync(closed, { mode: 0o700 });
      chmodSync(closed, 0o700);
      const shut = config(join(closed, 'ws'));
      const p = await probeSandbox(shut);
      expect([p.ok, p.user, p.runsAs]).toEqual([true, undefined, 0]);
      expect(p.runsAsWhy).toContain(`${closed} (mode 0700) lets no other user through`);
      const dir = join(closed, 'ws', 'T2');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'old.txt'), 'old\n');
      const asBot = await append(shut, dir);
      expect(asBot.ok && asBot.result.exitCode).toBe(0);
      expect([lstatSync(dir).uid, lstatSync(join(dir, 'new.txt')).uid]).toEqual([0, 0]);
      // Running as root again, a checkout given to the sandbox uid is taken back: root's bwrap could
      // not enter a 0700 folder of a uid its namespace does not map.
      const back = await append(shut, older);
      expect(back.ok && back.result.exitCode).toBe(0);
      expect([lstatSync(older).uid, lstatSync(join(older, 'old.txt')).uid]).toEqual([0, 0]);
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
      // The default network (egress): pasta attaches to the namespace the sandbox uid made.
      const w = await startWorld();
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
        await flow.done(60_000);
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
    }, 90_000);
  },
);
