import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceNodeArgs } from '../cli/source-node.ts';
import { probeSandbox } from '../executor/sandbox/probe-sandbox.ts';
import { freePort } from '../net/free-port.ts';
import {
  dropKeysUnder,
  findOrStartRedis,
  redisAddress,
  type StartedRedis,
} from '../store/local-redis-server.ts';
import { startDemoModel } from './demo-model.ts';
import { EXAMPLES } from './demo-tasks.ts';
import { startLocalGitHub } from './local-github.ts';
import { makeSampleRepo, SAMPLE_REPO } from './sample-repo.ts';

/**
 * `npm run demo`: the bot with nothing but this machine — a Redis (the one `REDIS_URL` names,
 * under a key prefix of its own; else a throwaway `redis-server` with a generated password, never
 * whatever answers on 6379: issue 45 item 4), a loopback GitHub serving a sample repository over
 * git, and the scripted model when no `LLM_API_KEY` is set (with one, the real model works on the sample repository). It
 * prints the panel's Try it link, signed in, and example requests. SIGINT/SIGTERM stop the bot
 * (its sandboxes die with it), the servers and the Redis it started, and remove
 * its temporary directory and keys.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
const say = (line: string) => process.stdout.write(`${line}\n`);
const secret = () => randomBytes(24).toString('hex');

export async function runDemo(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-demo-'));
  const cleanups: (() => Promise<unknown> | unknown)[] = [
    () => rmSync(dir, { recursive: true, force: true }),
  ];
  let stopping: Promise<void> | undefined;
  const stop = (code: number) => {
    stopping ??= (async () => {
      for (const c of cleanups.reverse()) await Promise.resolve(c()).catch(() => undefined);
      say('demo: stopped; nothing of it is left running');
      process.exit(code);
    })();
    return stopping;
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  try {
    const ready = await startPieces(env, dir, cleanups, (code) => void stop(code));
    say('');
    say(`Switchyard demo: ${ready.modelLine}`);
    say(`Open ${ready.link}`);
    say('and send one of these in Try it:');
    for (const [i, e] of EXAMPLES.entries()) say(`  ${i + 1}. ${e}`);
    say(`The sample repository and its pull requests: ${ready.repoUrl}`);
    say('Ctrl-C stops everything.');
  } catch (err) {
    process.stderr.write(`demo: ${(err as Error).message}\n`);
    await stop(1);
  }
}

async function startPieces(
  env: NodeJS.ProcessEnv,
  dir: string,
  cleanups: (() => Promise<unknown> | unknown)[],
  exit: (code: number) => void,
) {
  const prefix = `demo-${randomBytes(4).toString('hex')}`;
  const store = await findOrStartRedis(env.REDIS_URL || undefined, join(dir, 'redis'));
  const started: StartedRedis | undefined = store.started;
  if (started) cleanups.push(() => started.stop());
  else cleanups.push(() => dropKeysUnder(store.url, prefix));
  say(
    started
      ? `redis: started redis-server on ${redisAddress(store.url)} (with a password)`
      : `redis: using ${redisAddress(store.url)} (keys under ${prefix}:)`,
  );

  const githubToken = `ghp_demo${secret()}`;
  const gh = await startLocalGitHub({
    repo: SAMPLE_REPO,
    bare: makeSampleRepo(dir),
    token: githubToken,
    botLogin: 'switchyard-demo[bot]',
  });
  cleanups.push(() => gh.close());

  const realKey = env.LLM_API_KEY;
  const modelKey = `sk-demo-${secret()}`;
  const model = realKey ? undefined : await startDemoModel({ apiKey: modelKey, repo: SAMPLE_REPO });
  if (model) cleanups.push(() => model.close());
  const modelEnv: Record<string, string> = model
    ? {
        LLM_API_KEY: modelKey,
        LLM_BASE_URL: model.baseURL,
        LLM_PROVIDER: 'compatible',
        LLM_MODEL: 'switchyard-demo-script',
        STARTUP_DOCTOR: 'off',
      }
    : pick(env, ['LLM_API_KEY', 'LLM_BASE_URL', 'LLM_PROVIDER', 'LLM_MODEL', 'MAIN_MODEL', 'EXECUTOR_MODEL']);

  const sandbox = await demoSandbox(env, Boolean(model));
  const port = Number(env.DEMO_PORT) || (await freePort());
  const adminToken = secret();
  const bot = spawnBot(
    {
      ...pick(env, ['PATH', 'HOME', 'LANG', 'TMPDIR']),
      ...modelEnv,
      ...sandbox,
      REDIS_URL: store.url,
      KEY_PREFIX: prefix,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_TOKEN: adminToken,
      GITHUB_TOKEN: githubToken,
      GITHUB_WEBHOOK_SECRET: secret(),
      GITHUB_API_URL: gh.url,
      GITHUB_BOT_LOGIN: gh.botLogin,
      WORKSPACE_DIR: join(dir, 'workspaces'),
      CHAT_REPOS: `panel=${SAMPLE_REPO}`,
      DEMO: '1',
      LOG_LEVEL: env.LOG_LEVEL ?? 'warn',
      // An empty file: the demo never reads the working directory's `.env`.
      ENV_FILE: emptyFile(join(dir, 'demo.env')),
    },
    dir,
  );
  cleanups.push(() => stopBot(bot));
  bot.once('exit', (code) => {
    process.stderr.write(`demo: the bot stopped (exit ${code}); stopping the demo\n`);
    exit(code ?? 1);
  });
  const base = `http://127.0.0.1:${port}`;
  await waitForHealth(base, bot);
  return {
    link: `${base}/panel/#signin=${adminToken}&go=try`,
    repoUrl: `${gh.url}/${SAMPLE_REPO}`,
    modelLine: model
      ? 'scripted model (no LLM_API_KEY), sample repository demo/sample on a local GitHub'
      : `your model (${env.LLM_MODEL ?? 'the default'}), sample repository demo/sample on a local GitHub`,
  };
}

/**
 * The sandbox as configured; where bubblewrap cannot run and the model is the scripted one —
 * which runs no command but git on its own sample repository — git runs unconfined, said in one
 * line. With a real model the sandbox stays on (commands are refused until bubblewrap is there).
 */
async function demoSandbox(env: NodeJS.ProcessEnv, scripted: boolean): Promise<Record<string, string>> {
  const given = pick(env, ['SANDBOX', 'SANDBOX_NETWORK']);
  if (given.SANDBOX) return given;
  const probe = await probeSandbox({ ...SANDBOX_DEFAULTS, SANDBOX_NETWORK: 'none' });
  if (probe.ok) return given;
  if (!scripted) {
    say(
      `sandbox: ${probe.why ?? 'unavailable'}; the model's commands will be refused (npm run setup installs bubblewrap)`,
    );
    return given;
  }
  say(
    'sandbox: bubblewrap cannot run here; the scripted model runs only git on the sample repository, unconfined (npm run setup installs bubblewrap)',
  );
  return { ...given, SANDBOX: 'none' };
}

const SANDBOX_DEFAULTS = {
  SANDBOX: 'bwrap',
  SANDBOX_MEMORY_MB: 512,
  SANDBOX_PIDS: 64,
  SANDBOX_DISK_MB: 64,
  SANDBOX_TMP_MB: 64,
} as const;

const emptyFile = (path: string) => {
  writeFileSync(path, '');
  return path;
};

const pick = (env: NodeJS.ProcessEnv, names: string[]): Record<string, string> =>
  Object.fromEntries(names.flatMap((n) => (env[n] === undefined ? [] : [[n, env[n] as string]])));

/**
 * `npm start` in the demo's process group: Ctrl-C in the terminal reaches it too, and a demo
 * killed outright takes it along with the group.
 */
function spawnBot(env: Record<string, string>, cwd: string): ChildProcess {
  return spawn(process.execPath, [...sourceNodeArgs(), join(root, 'src/main.ts')], {
    cwd,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

async function stopBot(bot: ChildProcess): Promise<void> {
  bot.removeAllListeners('exit');
  if (bot.exitCode !== null || bot.signalCode !== null) return;
  const exited = new Promise((r) => bot.once('exit', r));
  bot.kill('SIGTERM');
  const late = setTimeout(() => bot.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(late);
}

async function waitForHealth(base: string, bot: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (bot.exitCode !== null) throw new Error('the bot exited while starting');
    const ok = await fetch(`${base}/readyz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the bot never answered at ${base}/readyz`);
}
