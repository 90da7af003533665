import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../kit/app.ts';
import { freePort, redisAnswersAt } from '../kit/local-net.ts';
import { freshPrefix, redisUrl } from '../kit/redis.ts';
import { NODE_TS, nodeCacheEnv } from '../kit/source-node.ts';

const MAIN = new URL('../../src/main.ts', import.meta.url).pathname;

interface Bot {
  child: ChildProcess;
  dir: string;
  out: () => string;
  exited: Promise<unknown>;
}

/**
 * The bot as `npm start` runs it, in a fresh working directory (where `./data/`
 * goes) with only the given variables; `LOCAL_REDIS_PORT` is a free port, never the 6379 the
 * machine's own Redis holds.
 */
function startBot(env: Record<string, string>): Bot {
  const dir = mkdtempSync(join(tmpdir(), 'sy-local-redis-'));
  writeFileSync(join(dir, 'empty.env'), '');
  const child = spawn(process.execPath, [...NODE_TS, MAIN], {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      ...nodeCacheEnv(),
      ENV_FILE: join(dir, 'empty.env'),
      LOG_LEVEL: 'info',
      STARTUP_DOCTOR: 'off',
      KEY_PREFIX: freshPrefix(),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += String(d);
  });
  child.stderr?.on('data', (d) => {
    out += String(d);
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const bot = { child, dir, out: () => out, exited };
  running.push(bot);
  return bot;
}

const running: Bot[] = [];
const extraRedis: number[] = [];

afterEach(async () => {
  // The passwords of the Redis servers the bots started, read before their folders go.
  const passwords = running
    .map((b) => join(b.dir, 'data', 'redis', 'password'))
    .filter((f) => existsSync(f))
    .map((f) => readFileSync(f, 'utf8').trim());
  for (const b of running.splice(0)) {
    if (b.child.exitCode === null && b.child.signalCode === null) {
      b.child.kill('SIGKILL');
      await b.exited;
    }
    rmSync(b.dir, { recursive: true, force: true });
  }
  // A redis-server a failed test left on its port.
  for (const port of extraRedis.splice(0))
    for (const password of [undefined, ...passwords]) {
      const r = new Redis({ port, password, lazyConnect: true, retryStrategy: () => null });
      r.on('error', () => {});
      await r
        .connect()
        .then(() => r.shutdown('NOSAVE'))
        .catch(() => undefined);
      r.disconnect();
    }
});

const STARTED = /redis: no REDIS_URL and nothing at 127\.0\.0\.1:(\d+), so started redis-server there/;

describe('npm start and its own Redis (issue 32)', () => {
  it('with no REDIS_URL and nothing answering, starts redis-server (AOF on, noeviction, a password, data under ./data/), says so in one line, and stops it on shutdown', async () => {
    const port = await freePort();
    extraRedis.push(port);
    const bot = startBot({ LOCAL_REDIS_PORT: String(port), PORT: String(await freePort()) });
    await waitFor(() => bot.out().includes('listening on'), 'the bot listening', 90_000);
    // Issue 45 item 4: it takes clients only with the password the bot keeps beside its data.
    const password = readFileSync(join(bot.dir, 'data', 'redis', 'password'), 'utf8').trim();
    const url = `redis://:${password}@127.0.0.1:${port}`;
    expect(await redisAnswersAt(`redis://127.0.0.1:${port}`)).toBe(false);
    const said = bot
      .out()
      .split('\n')
      .filter((l) => STARTED.test(l));
    expect(said).toHaveLength(1);
    expect(STARTED.exec(said[0] as string)?.[1]).toBe(String(port));
    const r = new Redis(url);
    try {
      expect(await r.config('GET', 'appendonly')).toEqual(['appendonly', 'yes']);
      expect(await r.config('GET', 'maxmemory-policy')).toEqual(['maxmemory-policy', 'noeviction']);
      expect(await r.config('GET', 'dir')).toEqual(['dir', join(bot.dir, 'data', 'redis')]);
      // The bot's own keys are there: it uses the Redis it started.
      expect((await r.keys('*')).length).toBeGreaterThan(0);
    } finally {
      r.disconnect();
    }
    expect(readdirSync(join(bot.dir, 'data', 'redis')).some((f) => f.startsWith('appendonly'))).toBe(true);
    bot.child.kill('SIGTERM');
    await bot.exited;
    expect(await redisAnswersAt(url)).toBe(false);
  }, 120_000);

  it('with REDIS_URL set it never starts one, even when nothing answers there', async () => {
    const port = await freePort();
    extraRedis.push(port);
    const url = `redis://127.0.0.1:${port}`;
    const bot = startBot({ REDIS_URL: url, LOCAL_REDIS_PORT: String(port), PORT: String(await freePort()) });
    // The channels line comes after configuration, where a local Redis would have been started.
    await waitFor(() => bot.out().includes('channels:'), 'the bot configured', 90_000);
    expect(bot.out()).not.toMatch(STARTED);
    expect(await redisAnswersAt(url)).toBe(false);
    expect(existsSync(join(bot.dir, 'data', 'redis'))).toBe(false);
  }, 120_000);

  it('with REDIS_URL set to a Redis that answers, uses it and starts nothing', async () => {
    const port = await freePort();
    const bot = startBot({
      REDIS_URL: redisUrl(),
      LOCAL_REDIS_PORT: String(port),
      PORT: String(await freePort()),
    });
    await waitFor(() => bot.out().includes('listening on'), 'the bot listening', 90_000);
    expect(bot.out()).not.toMatch(STARTED);
    expect(await redisAnswersAt(`redis://127.0.0.1:${port}`)).toBe(false);
  }, 120_000);
});
