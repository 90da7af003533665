import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../kit/app.ts';
import { freePort } from '../kit/local-net.ts';
import { ownedPrefixes, redisUrl, testRedis } from '../kit/redis.ts';
import { NODE_TS, nodeCacheEnv } from '../kit/source-node.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dirs: string[] = [];
const { redis } = testRedis();
/** Prefixes the started bot stores under; their keys go after the file. */
const ownPrefix = ownedPrefixes();
const running: { child: ChildProcess; exited: Promise<number | null> }[] = [];

afterEach(async () => {
  for (const s of running.splice(0)) {
    if (s.child.exitCode === null && s.child.pid !== undefined) {
      try {
        process.kill(-s.child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await s.exited;
  }
});
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

/**
 * The real entry point (`src/main.ts`, what `npm start` runs) in a directory holding only the
 * given `.env`, with nothing in the environment but PATH/HOME and `env`.
 */
async function startIn(dotenv: string, env: Record<string, string> = {}) {
  const cwd = await mkdtemp(join(tmpdir(), 'sy-start-'));
  dirs.push(cwd);
  await writeFile(join(cwd, '.env'), dotenv);
  const child = spawn(process.execPath, [...NODE_TS, join(root, 'src/main.ts')], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...nodeCacheEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += String(d);
  });
  child.stderr?.on('data', (d) => {
    out += String(d);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  running.push({ child, exited });
  return { out: () => out, exited };
}

const healthy = (port: number) =>
  fetch(`http://127.0.0.1:${port}/healthz`)
    .then((r) => r.status === 200)
    .catch(() => false);

describe('npm start reads .env (issue 16)', () => {
  it('listens on the PORT and stores under the REDIS_URL and KEY_PREFIX that .env names', async () => {
    const port = await freePort();
    const prefix = ownPrefix();
    await startIn(
      `# written by cp .env.example .env\nPORT=${port}\nREDIS_URL="${redisUrl()}"\nKEY_PREFIX=${prefix}\nSTARTUP_DOCTOR=off\n`,
    );
    await waitFor(() => healthy(port), `the bot on .env's PORT ${port}`, 30_000);
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    // Start-up migrates the store: its keys carry the file's prefix.
    await waitFor(async () => (await redis.keys(`${prefix}:*`)).length > 0, `keys under ${prefix}`, 10_000);
  }, 45_000);

  it('a variable set in the real environment wins over .env', async () => {
    const [filePort, realPort] = [await freePort(), await freePort()];
    const bot = await startIn(`PORT=${filePort}\nREDIS_URL=${redisUrl()}\nSTARTUP_DOCTOR=off\n`, {
      PORT: String(realPort),
      KEY_PREFIX: ownPrefix(),
    });
    await waitFor(() => healthy(realPort), `the bot on the real PORT ${realPort}`, 30_000);
    expect(await healthy(filePort)).toBe(false);
    expect(bot.out()).toContain(`:${realPort}`);
  }, 45_000);

  it('a malformed .env stops start-up with one line naming the line, not its text', async () => {
    const bot = await startIn('PORT=3999\nLLM_API_KEY sk-not-for-logs\n', { REDIS_URL: redisUrl() });
    expect(await bot.exited).not.toBe(0);
    const lines = bot
      .out()
      .split('\n')
      .filter((l) => l.trim());
    expect(lines).toEqual(['Bad configuration: .env line 2: not NAME=value']);
  }, 45_000);
});
