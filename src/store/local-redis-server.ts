import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { Redis } from 'ioredis';
import { ConfigError } from '../config.ts';
import { freePort } from '../net/free-port.ts';
import {
  keptRedisPassword,
  localRedisAt,
  localRedisPassword,
  newRedisPassword,
  ownFolder,
} from './local-redis-secret.ts';

/**
 * A `redis-server` of this machine's: for the test suite (a throwaway one when none answers),
 * `npm run demo` (a throwaway one unless `REDIS_URL` names one) and `npm start` with no
 * `REDIS_URL` (AOF on, `noeviction`, data under `./data/redis`). Issue 45 item 4: whatever the bot
 * starts takes clients only with a password it generated, in a 0700 folder; a Redis the bot did
 * not start is used by the product only when `REDIS_URL` names it.
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
  /** Its URL, with the password: never print it; `redisAddress` says where it is. */
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

/** A Redis URL without its credentials and query (`sentinelPassword`): what may be printed. */
export const redisAddress = (url: string): string => url.replace(/\/\/[^@/]*@/g, '//').split('?')[0] ?? '';

/**
 * Starts `redis-server` on loopback at `port` (a free one when 0) with `args` after the port,
 * bind and directory (made 0700), requiring `password`, and waits until it answers; throws when
 * it never does. The password goes in on standard input (`redis-server -`), never on the command
 * line, which every user of the machine can read.
 */
export async function startRedisServer(opts: {
  port?: number;
  dir: string;
  args: string[];
  password: string;
}): Promise<StartedRedis> {
  const port = opts.port || (await freePort());
  ownFolder(opts.dir);
  const child = spawn(
    'redis-server',
    ['-', '--port', String(port), '--bind', '127.0.0.1', '--dir', opts.dir, ...opts.args],
    { stdio: ['pipe', 'ignore', 'ignore'] },
  );
  child.stdin?.on('error', () => {});
  child.stdin?.end(`requirepass ${opts.password}\n`);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  };
  const url = `redis://:${opts.password}@127.0.0.1:${port}`;
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
 * The suite's and the demo's Redis: `wanted` when it is given and answers, else a throwaway
 * `redis-server` with a password of its own on a free port in `dir` (`started` says so, to stop
 * it after), else a clear failure. The demo passes only `REDIS_URL` (issue 45 item 4: never
 * whatever answers on 6379); the suite, a test harness, also the machine's 6379.
 */
export async function findOrStartRedis(
  wanted: string | undefined,
  dir: string,
): Promise<{ url: string; started?: StartedRedis }> {
  if (wanted && (await redisAnswersAt(wanted))) return { url: wanted };
  if (!hasRedisServer()) throw new Error(noRedisHelp(wanted ? redisAddress(wanted) : 'REDIS_URL (unset)'));
  const started = await startRedisServer({ dir, args: THROWAWAY_REDIS, password: newRedisPassword() });
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
 * `npm start` with no `REDIS_URL` (issue 32): the bot's own Redis at 127.0.0.1 on
 * `LOCAL_REDIS_PORT` (default 6380, beside the 6379 of a system Redis such as Debian's `redis-server`
 * service, which `npm run setup` installs) — one it started earlier, or its other ROLE's — else a
 * `redis-server` from PATH started there with AOF on, `noeviction`, its data under `dir`
 * (`./data/redis`, 0700) and the password kept there (issue 45 item 4). Any other Redis answering
 * there stops start-up: it is used only when `REDIS_URL` names it. With `REDIS_URL` set nothing is
 * started, ever; with no redis-server on PATH start-up goes on to say Redis is unreachable.
 */
export function localRedisPort(env: Record<string, string | undefined>): number {
  const raw = env.LOCAL_REDIS_PORT ?? '6380';
  const port = /^\d{1,5}$/.test(raw) ? Number(raw) : 0;
  if (port < 1 || port > 65535)
    throw new ConfigError('Bad configuration: LOCAL_REDIS_PORT must be a port number (1–65535)');
  return port;
}

/**
 * The Redis `npm start` would use, for `npm run doctor`, without starting or writing anything:
 * `REDIS_URL` when set, else the bot's own on `LOCAL_REDIS_PORT` with its kept password (none
 * yet: the address alone, which then answers nothing until `npm start` starts it).
 */
export function redisUrlOfStart(
  env: Record<string, string | undefined>,
  dir = resolve('data', 'redis'),
): string {
  if (env.REDIS_URL) return env.REDIS_URL;
  const password = keptRedisPassword(dir);
  return `redis://${password ? `:${password}@` : ''}127.0.0.1:${localRedisPort(env)}`;
}

export async function withLocalRedis(
  env: Record<string, string | undefined>,
  dir = resolve('data', 'redis'),
): Promise<LocalRedis> {
  if (env.REDIS_URL) return { env };
  const port = localRedisPort(env);
  const password = localRedisPassword(dir);
  const local = { ...env, REDIS_URL: `redis://:${password}@127.0.0.1:${port}` };
  const found = await localRedisAt(port, password);
  if (found === 'foreign')
    throw new ConfigError(
      `A Redis the bot did not start answers at 127.0.0.1:${port} (it does not take the password in ${dir}/password): the bot uses another Redis only when REDIS_URL names it. Set REDIS_URL to it (with its password), or LOCAL_REDIS_PORT to a free port`,
    );
  if (found === 'own' || !hasRedisServer()) return { env: local };
  try {
    const started = await startRedisServer({ port, dir, args: LOCAL_REDIS_ARGS, password });
    const line = `redis: no REDIS_URL and nothing at 127.0.0.1:${port}, so started redis-server there (AOF on, noeviction, a password, data in ${dir}); it stops with the bot`;
    return { env: local, started: { ...started, line, dir } };
  } catch (err) {
    throw new ConfigError(
      `Cannot start redis-server on 127.0.0.1:${port} (${(err as Error).message}): set REDIS_URL to a running Redis, or LOCAL_REDIS_PORT to a free port`,
    );
  }
}
