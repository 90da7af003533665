import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findOrStartRedis, type StartedRedis } from '../../src/store/local-redis-server.ts';

/**
 * Finds a Redis for the suite (CONTRACT: `npm test`): `REDIS_URL` when it answers, else a
 * throwaway `redis-server` from PATH on a free port, else a clear failure saying how to get one
 * (`findOrStartRedis`, which `npm run demo` uses too).
 */

let started: StartedRedis | undefined;
let dir: string | undefined;

export async function setup(): Promise<void> {
  dir = mkdtempSync(join(tmpdir(), 'sy-suite-redis-'));
  const found = await findOrStartRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', dir);
  started = found.started;
  process.env.REDIS_URL = found.url;
}

export async function teardown(): Promise<void> {
  await started?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}
