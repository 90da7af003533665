import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { freePort, redisAnswersAt } from '../kit/local-net.ts';

/**
 * Finds a Redis for the suite (CONTRACT: `npm test`): `REDIS_URL` when it answers, else a
 * throwaway `redis-server` from PATH on a free port, else a clear failure saying how to get one.
 */

let child: ChildProcess | undefined;

export async function setup(): Promise<void> {
  const wanted = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  if (await redisAnswersAt(wanted)) {
    process.env.REDIS_URL = wanted;
    return;
  }
  if (spawnSync('redis-server', ['--version']).status !== 0) {
    throw new Error(
      `No Redis answers at ${wanted} and no redis-server is on PATH. Set REDIS_URL to a running Redis (>= 6.2), or install one (Debian: apt-get install redis-server).`,
    );
  }
  const port = await freePort();
  child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (await redisAnswersAt(url)) {
      process.env.REDIS_URL = url;
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Started redis-server on port ${port} but it never answered`);
}

export async function teardown(): Promise<void> {
  child?.kill('SIGTERM');
}
