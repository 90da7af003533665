import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../kit/app.ts';
import { freePort } from '../kit/local-net.ts';
import { freshPrefix, redisUrl } from '../kit/redis.ts';
import { NODE_TS, nodeCacheEnv } from '../kit/source-node.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
// Inside the checkout, so the compiled files resolve packages from its node_modules as in the image.
const out = join(root, 'test', 'artifacts', `dist-${freshPrefix()}`);
const running: { child: ChildProcess; exited: Promise<number | null> }[] = [];
const ADMIN_TOKEN = 'a'.repeat(40);

beforeAll(() => {
  const build = spawnSync(process.execPath, [...NODE_TS, join(root, 'scripts/build.ts'), out, '--no-check'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}${build.stderr}`);
  writeFileSync(join(out, 'empty.env'), '');
}, 240_000);
afterAll(() => rm(out, { recursive: true, force: true }));
afterEach(async () => {
  for (const s of running.splice(0)) {
    if (s.child.exitCode === null) s.child.kill('SIGKILL');
    await s.exited;
  }
});

const baseEnv = () => ({
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '/tmp',
  // An empty file: a named ENV_FILE that is missing stops start-up, and the checkout's .env must not count.
  ENV_FILE: join(out, 'empty.env'),
  REDIS_URL: redisUrl(),
  KEY_PREFIX: freshPrefix(),
  STARTUP_DOCTOR: 'off',
  SANDBOX: 'none',
  // Node's compile cache for the run: the built files are compiled once for every process here.
  ...nodeCacheEnv(),
});

/** `node dist/src/main.js`, the image's command: no tsx, nothing read from the sources. */
function startBuilt(env: Record<string, string>) {
  const child = spawn(process.execPath, [join(out, 'src/main.js')], { cwd: root, env, stdio: 'ignore' });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  running.push({ child, exited });
  return { child, exited };
}

const healthcheck = (env: Record<string, string>) =>
  spawnSync(process.execPath, [join(out, 'scripts/healthcheck.js')], { env, encoding: 'utf8' });

const status = (url: string, init?: RequestInit) =>
  fetch(url, init)
    .then((r) => r.status)
    .catch(() => 0);

describe('the compiled build (issue 16: the Docker image runs it)', () => {
  it('node dist/src/main.js serves the API with the built-in prompts and the panel, and its health check passes', async () => {
    const port = await freePort();
    const env = {
      ...baseEnv(),
      PORT: String(port),
      ADMIN_TOKEN,
      EVAL_ORACLE: '1',
      EVAL_ONLY: 'js-slugify',
      EVAL_RESULTS_DIR: join(out, 'eval-results'),
    };
    const bot = startBuilt(env);
    const base = `http://127.0.0.1:${port}`;
    await waitFor(async () => (await status(`${base}/healthz`)) === 200, 'the built bot to answer', 60_000);

    // prompts/ and skills/ were copied next to the output: the built-in texts load.
    const prompts = await fetch(`${base}/api/prompts`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(prompts.status).toBe(200);
    const view = (await prompts.json()) as { sections: unknown[]; skills: { builtin: unknown[] } };
    expect(view.sections.length).toBeGreaterThan(0);
    expect(view.skills.builtin.length).toBeGreaterThan(0);
    // The panel's static assets too.
    const panel = await fetch(`${base}/panel/`);
    expect(panel.status).toBe(200);
    expect(await panel.text()).toContain('<html');
    // bull-board (issue 17): its page and its files, read from node_modules at run time.
    const bearer = { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } };
    const board = await fetch(`${base}/panel/queues/board`, bearer);
    expect(board.status).toBe(200);
    const css = (await board.text()).match(/static\/css\/[\w.]+\.css/)?.[0];
    expect(await status(`${base}/panel/queues/board/${css}`, bearer)).toBe(200);

    // Issue 29: the panel's Evaluate runs the compiled eval CLI on the tasks copied beside it.
    const started = await fetch(`${base}/api/eval/ab`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ draft: { team: { about: 'The built candidate.' } } }),
    });
    expect(started.status).toBe(202);
    let run: { state: string; exitCode: number | null; run: string | null; lines: string[] } | undefined;
    await waitFor(
      async () => {
        run = ((await (await fetch(`${base}/api/eval/ab`, bearer)).json()) as { run: typeof run }).run;
        return run?.state !== 'running';
      },
      'the built Evaluate run to end',
      90_000,
    );
    expect(run, run?.lines.join('\n')).toMatchObject({ state: 'finished', exitCode: 0 });
    const results = await fetch(`${base}/api/eval/runs/${run?.run}`, bearer);
    expect(((await results.json()) as { arms: unknown }).arms).toMatchObject({
      published: { resolved: 1 },
      candidate: { resolved: 1 },
    });

    expect(healthcheck(env).status).toBe(0);
    bot.child.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
    const after = healthcheck(env);
    expect(after.status).toBe(1);
    expect(after.stderr).toContain(`:${port}/healthz`);
  }, 180_000);

  it('ROLE=worker serves /healthz and /readyz only, on HEALTH_PORT, and the health check probes it', async () => {
    const port = await freePort();
    const env = { ...baseEnv(), ROLE: 'worker', HEALTH_PORT: String(port) };
    startBuilt(env);
    const base = `http://127.0.0.1:${port}`;
    await waitFor(async () => (await status(`${base}/healthz`)) === 200, 'the worker health port', 60_000);
    expect(await status(`${base}/readyz`)).toBe(200);
    expect(await status(`${base}/webhooks/github`, { method: 'POST', body: '{}' })).toBe(404);
    expect(await status(`${base}/panel/`)).toBe(404);
    expect(healthcheck(env).status).toBe(0);

    const { HEALTH_PORT: _, ...noHealthPort } = env;
    const none = healthcheck(noHealthPort);
    expect(none.status).toBe(1);
    expect(none.stderr).toBe('ROLE=worker serves no health port: set HEALTH_PORT\n');
  }, 90_000);
});
