import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { Redis } from 'ioredis';
import { ConfigError } from '../config.ts';
import { freePort } from '../net/free-port.ts';

/**
 * A `redis-server` of this machine's, started when none answers: for the test suite (a throwaway
 * one), `npm run demo` (the same, with its own directory) and `npm start` with no `REDIS_URL`
 * (AOF on, `noeviction`, data under `./data/redis`).
 */

/** True when a Redis at `url` answers PING; never retries, never throws. */
export async function redisAnswersAt(url: string): Promise<boolean> {
  const r = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 1000,
  });
  r.on('error', () => {});
  try {
    await r.connect();
    return (await r.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}

export interface StartedRedis {
  url: string;
  port: number;
  child: ChildProcess;
  /** SIGTERM, then waits for it to exit (Redis writes its AOF on the way out). */
  stop(): Promise<void>;
}

/** Whether a `redis-server` is on PATH. */
export const hasRedisServer = (): boolean => spawnSync('redis-server', ['--version']).status === 0;

/** What to say when no Redis answers and none can be started. */
export const noRedisHelp = (wanted: string): string =>
  `No Redis answers at ${wanted} and no redis-server is on PATH. Set REDIS_URL to a running Redis (>= 6.2), or install one (npm run setup, or on Debian: apt-get install redis-server).`;

/**
 * Starts `redis-server` on loopback at `port` (a free one when 0) with `args` after the port,
 * bind and directory, and waits until it answers; throws when it never does.
 */
export async function startRedisServer(opts: {
  port?: number;
  dir: string;
  args: string[];
}): Promise<StartedRedis> {
  const port = opts.port || (await freePort());
  mkdirSync(opts.dir, { recursive: true });
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', opts.dir, ...opts.args],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  };
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (await redisAnswersAt(url)) return { url, port, child, stop };
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`started redis-server on port ${port} but it never answered`);
}

/** A throwaway Redis's settings: nothing written to disk. */
export const THROWAWAY_REDIS = ['--save', '', '--appendonly', 'no'];

/**
 * The suite's and the demo's Redis: `wanted` when it answers, else a throwaway `redis-server` on
 * a free port in `dir` (`started` says so, to stop it after), else a clear failure.
 */
export async function findOrStartRedis(
  wanted: string,
  dir: string,
): Promise<{ url: string; started?: StartedRedis }> {
  if (await redisAnswersAt(wanted)) return { url: wanted };
  if (!hasRedisServer()) throw new Error(noRedisHelp(wanted));
  const started = await startRedisServer({ dir, args: THROWAWAY_REDIS });
  return { url: started.url, started };
}

/**
 * Deletes every key under `prefix:` at `url` (the demo's own key prefix on a Redis it found
 * running): one SCAN pass matching that literal start. A prefix shorter than 8 characters is refused.
 */
export async function dropKeysUnder(url: string, prefix: string): Promise<number> {
  if (!/^[\w-]{8,}$/.test(prefix)) throw new Error(`refusing to drop keys under "${prefix}"`);
  const r = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2000 });
  r.on('error', () => {});
  let dropped = 0;
  try {
    let cursor = '0';
    do {
      const [next, found] = await r.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 10_000);
      cursor = next;
      for (let i = 0; i < found.length; i += 500) dropped += await r.unlink(...found.slice(i, i + 500));
    } while (cursor !== '0');
  } finally {
    r.disconnect();
  }
  return dropped;
}

/** What `npm start` found or started when `REDIS_URL` is unset. */
export interface LocalRedis {
  /** The environment with `REDIS_URL` set to the local Redis. */
  env: Record<string, string | undefined>;
  /** The redis-server this process started (to stop on shutdown), with the line that says so. */
  started?: StartedRedis & { line: string; dir: string };
}

/** The settings of the bot's own Redis: persistent (AOF) and never evicting the bot's data. */
export const LOCAL_REDIS_ARGS = ['--appendonly', 'yes', '--maxmemory-policy', 'noeviction'];

/**
 * `npm start` with no `REDIS_URL` (issue 32): the Redis answering at 127.0.0.1 on
 * `LOCAL_REDIS_PORT` (default 6379), else a `redis-server` from PATH started there with AOF on,
 * `noeviction` and its data under `./data/redis`. With `REDIS_URL` set nothing is started, ever;
 * with no redis-server on PATH start-up goes on to say Redis is unreachable.
 */
export async function withLocalRedis(env: Record<string, string | undefined>): Promise<LocalRedis> {
  if (env.REDIS_URL) return { env };
  const raw = env.LOCAL_REDIS_PORT ?? '6379';
  const port = /^\d{1,5}$/.test(raw) ? Number(raw) : 0;
  if (port < 1 || port > 65535)
    throw new ConfigError('Bad configuration: LOCAL_REDIS_PORT must be a port number (1–65535)');
  const url = `redis://127.0.0.1:${port}`;
  const local = { ...env, REDIS_URL: url };
  if ((await redisAnswersAt(url)) || !hasRedisServer()) return { env: local };
  const dir = resolve('data', 'redis');
  try {
    const started = await startRedisServer({ port, dir, args: LOCAL_REDIS_ARGS });
    const line = `redis: no REDIS_URL and nothing at 127.0.0.1:${port}, so started redis-server there (AOF on, noeviction, data in ${dir}); it stops with the bot`;
    return { env: local, started: { ...started, line, dir } };
  } catch (err) {
    throw new ConfigError(
      `Cannot start redis-server on 127.0.0.1:${port} (${(err as Error).message}): set REDIS_URL to a running Redis, or LOCAL_REDIS_PORT to a free port`,
    );
  }
}
