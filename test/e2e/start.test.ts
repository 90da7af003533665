import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../kit/app.ts';
import { freePort } from '../kit/local-net.ts';
import { freshPrefix, redisUrl } from '../kit/redis.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const emptyEnvFile = join(tmpdir(), 'switchyard-empty.env');
writeFileSync(emptyEnvFile, '');

interface Started {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exited: Promise<number | null>;
}

/**
 * `npm start` as an operator runs it, with nothing but the given variables (and PATH/HOME so npm
 * runs at all). Its own process group, so the whole tree (npm → sh → node) is stopped together.
 */
function npmStart(env: Record<string, string>): Started {
  const child = spawn('npm', ['start', '--silent'], {
    cwd: root,
    // ENV_FILE: a developer's own `.env` in the checkout must not change what these tests see.
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      // Issue 32: a missing file ENV_FILE names is refused, so an empty one stands in.
      ENV_FILE: emptyEnvFile,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d) => {
    out += String(d);
  });
  child.stderr?.on('data', (d) => {
    err += String(d);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, exited };
}

const running: Started[] = [];

afterEach(async () => {
  for (const s of running.splice(0)) {
    if (s.child.exitCode !== null || s.child.pid === undefined) continue;
    try {
      process.kill(-s.child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    await s.exited;
  }
});

const get = (url: string) =>
  fetch(url)
    .then((r) => r.status)
    .catch(() => 0);

describe('npm start (CONTRACT "Commands")', () => {
  it('with no credentials it starts, /healthz and /readyz answer 200, and one log line says which channels are off', async () => {
    const port = await freePort();
    // KEY_PREFIX only keeps this run's keys apart from the suite's; it is no credential.
    const bot = npmStart({ REDIS_URL: redisUrl(), PORT: String(port), KEY_PREFIX: freshPrefix() });
    running.push(bot);
    const base = `http://127.0.0.1:${port}`;
    await waitFor(async () => (await get(`${base}/healthz`)) === 200, '/healthz to answer 200', 30_000);
    expect(await get(`${base}/readyz`)).toBe(200);

    const lines = bot.out().split('\n');
    const channelLines = lines.filter((l) => /channels:/.test(l));
    expect(channelLines).toHaveLength(1);
    const line = channelLines[0] ?? '';
    expect(line).toMatch(/feishu off/);
    expect(line).toMatch(/github off/);
    expect(line).toMatch(/model off/);
    // Issue 17: no OTEL_EXPORTER_OTLP_ENDPOINT, no tracing SDK.
    expect(line).toMatch(/tracing off/);

    // SIGTERM to the group (npm re-raises it on itself, so its own exit code says nothing): the bot
    // logs its shutdown and the whole tree is gone well within the grace.
    process.kill(-(bot.child.pid ?? 0), 'SIGTERM');
    await bot.exited;
    await waitFor(() => /shutting down/.test(bot.out()), 'the shutdown log line', 5000);
    expect(await get(`${base}/healthz`)).toBe(0);
  }, 45_000);

  it('a bad variable (PORT=abc) stops start-up with a non-zero exit and one line naming it', async () => {
    const bot = npmStart({ REDIS_URL: redisUrl(), PORT: 'abc', KEY_PREFIX: freshPrefix() });
    running.push(bot);
    const code = await bot.exited;
    expect(code).not.toBe(0);
    // npm adds its own "npm error …" lines about the failed script; the bot's own output is one line.
    const ours = `${bot.out()}\n${bot.err()}`
      .split('\n')
      .filter((l) => l.trim() && !/^npm (error|ERR!|warn)/.test(l));
    expect(ours).toHaveLength(1);
    // Issue 32: in words, not zod's.
    expect(ours[0]).toBe('Bad configuration: PORT must be a number');
  }, 45_000);
});
