import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.ts';
import { waitFor } from '../kit/app.ts';
import { freePort } from '../kit/local-net.ts';
import { freshPrefix, redisUrl } from '../kit/redis.ts';

/** Issue 32: the `switchyard` command, run as the bin package.json names. */
const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'bin/switchyard.mjs');
const dir = await mkdtemp(join(tmpdir(), 'cli-'));
const emptyEnv = join(dir, 'empty.env');
await writeFile(emptyEnv, '');
const running: ChildProcess[] = [];
afterAll(async () => {
  for (const c of running) if (c.pid && c.exitCode === null) process.kill(-c.pid, 'SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

const baseEnv = () => ({
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '/tmp',
  ENV_FILE: emptyEnv,
});

const cli = (args: string[], env: Record<string, string> = {}) => {
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd: root,
    env: { ...baseEnv(), ...env },
    encoding: 'utf8',
    timeout: 90_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

/**
 * The same command in this process (`runCli`, which src/cli/main.ts runs): what it answers to
 * arguments alone — help, versions, refusals — without a process per call.
 */
async function inProcess(args: string[]) {
  let out = '';
  let err = '';
  const code = await runCli(args, {
    out: { write: (t: string) => (out += t) },
    err: { write: (t: string) => (err += t) },
  });
  return { code, out, err };
}

const version = (
  JSON.parse(spawnSync('cat', [join(root, 'package.json')], { encoding: 'utf8' }).stdout) as {
    version: string;
  }
).version;

describe('switchyard: --help, --version and unknown flags on every command', () => {
  it('package.json names the one bin', () => {
    const pkg = JSON.parse(spawnSync('cat', [join(root, 'package.json')], { encoding: 'utf8' }).stdout);
    expect(pkg.bin).toEqual({ switchyard: 'bin/switchyard.mjs' });
  });

  it.each([
    ['start', /^Usage: switchyard start \[options\]/],
    ['demo', /^Usage: switchyard demo \[options\]/],
    ['doctor', /^Usage: switchyard doctor \[options\][\s\S]*--lang <en\|zh-CN>/],
    ['send-event', /^Usage: switchyard send-event github <event>[\s\S]*--body <text>/],
  ])('%s --help, -h, --version; an unknown flag is an error', async (command, help) => {
    const h = await inProcess([command, '--help']);
    expect(h.code).toBe(0);
    expect(h.out).toMatch(help);
    expect(h.out).toContain('--version');
    expect((await inProcess([command, '-h'])).out).toBe(h.out);
    const v = await inProcess([command, '--version']);
    expect([v.code, v.out]).toEqual([0, `switchyard ${version}\n`]);
    const bad = await inProcess([command, '--no-such-flag']);
    expect(bad.code).toBe(2);
    expect(bad.err).toBe(`switchyard: Unknown option '--no-such-flag'; run switchyard ${command} --help\n`);
  });

  it('the bin runs the same command: its help, version and refusal as a process, with the exit status', () => {
    const h = cli(['doctor', '--help']);
    expect(h.code).toBe(0);
    expect(h.out).toMatch(/^Usage: switchyard doctor \[options\]/);
    expect(cli(['--version']).out).toBe(`switchyard ${version}\n`);
    const bad = cli(['start', '--no-such-flag']);
    expect([bad.code, bad.err]).toEqual([
      2,
      "switchyard: Unknown option '--no-such-flag'; run switchyard start --help\n",
    ]);
  }, 120_000);

  it('the command list, an unknown command, no command', async () => {
    const h = await inProcess(['--help']);
    expect(h.code).toBe(0);
    for (const c of ['start', 'demo', 'doctor', 'send-event'])
      expect(h.out).toMatch(new RegExp(`^  ${c} `, 'm'));
    expect((await inProcess(['--version'])).out).toBe(`switchyard ${version}\n`);
    const unknown = await inProcess(['launch']);
    expect([unknown.code, unknown.err]).toEqual([
      2,
      'switchyard: unknown command "launch"; run switchyard --help\n',
    ]);
    const none = await inProcess([]);
    expect(none.code).toBe(2);
    expect(none.out).toBe(h.out);
  });
});

describe('switchyard send-event against the real bot (switchyard start)', () => {
  it('a signed GitHub issue_comment and Feishu message are taken; a wrong secret is refused; no bot is said', async () => {
    const port = await freePort();
    const closed = await freePort();
    const secrets = {
      GITHUB_WEBHOOK_SECRET: 'cli-test-secret',
      GITHUB_BOT_LOGIN: 'switchyard-bot',
      GITHUB_TOKEN: 'ghp_test',
      GITHUB_API_URL: `http://127.0.0.1:${closed}`,
      FEISHU_APP_ID: 'cli_a0b1c2d3e4f50617',
      FEISHU_APP_SECRET: 'feishu-secret',
      FEISHU_ENCRYPT_KEY: 'encrypt-key',
      FEISHU_VERIFICATION_TOKEN: 'verify-token',
      FEISHU_EVENT_MODE: 'http',
      FEISHU_DOMAIN: `http://127.0.0.1:${closed}`,
    };
    const env = { ...secrets, PORT: String(port), HOST: '127.0.0.1' };
    const bot = spawn(process.execPath, [bin, 'start'], {
      cwd: root,
      env: { ...baseEnv(), ...env, ROLE: 'web', REDIS_URL: redisUrl(), KEY_PREFIX: freshPrefix() },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    running.push(bot);
    let log = '';
    bot.stdout?.on('data', (d) => {
      log += String(d);
    });
    await waitFor(() => /listening on/.test(log), 'the bot to listen', 90_000);

    const gh = cli(
      ['send-event', 'github', 'issue_comment', '--body', '@switchyard please look', '--repo', 'acme/web'],
      env,
    );
    expect(gh.err).toBe('');
    expect(gh.out).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/webhooks/github answered 20[02]`));
    expect(gh.code).toBe(0);
    await waitFor(
      () => /POST \/webhooks\/github 20[02] \d+ ms delivery [0-9a-f-]{36}/.test(log),
      'its access line',
      10_000,
    );

    const fs = cli(['send-event', 'feishu', 'hello from the command line'], env);
    expect(fs.out).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/webhooks/feishu answered 200`));
    expect(fs.code).toBe(0);

    // Signed with another secret than the bot's: the bot's refusal is printed, exit 1.
    const wrong = cli(['send-event', 'github', 'issue_comment'], {
      ...env,
      GITHUB_WEBHOOK_SECRET: 'not-the-secret',
    });
    expect(wrong.out).toMatch(/webhooks\/github answered 401/);
    expect(wrong.code).toBe(1);

    const none = cli(['send-event', 'github', 'issue_comment'], { ...env, PORT: String(closed) });
    expect(none.out).toMatch(
      /^no bot answers at http:\/\/127\.0\.0\.1:\d+\/webhooks\/github \(ECONNREFUSED\): start it/,
    );
    expect(none.code).toBe(1);

    const noSecret = cli(['send-event', 'github', 'issue_comment'], { PORT: String(port) });
    expect(noSecret.err).toBe(
      'switchyard: GITHUB_WEBHOOK_SECRET is not set: send-event signs with the secret the bot checks\n',
    );
    expect(noSecret.code).toBe(1);
  }, 240_000);
});
