import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort, redisAnswersAt } from '../kit/local-net.ts';

/**
 * A test's own `redis-server` (from PATH) with AOF on (`appendfsync always`, as
 * docker-compose runs it) in a temp dir, so a test can shut it down and start it again on the
 * same port and data without touching the suite's Redis.
 */
export interface OwnRedis {
  url: string;
  port: number;
  dir: string;
  /** `SHUTDOWN` (Redis writes and closes the AOF), wait until the process is gone. */
  shutdown(): Promise<void>;
  /** Start again on the same port and dir; resolves once it answers PING (AOF loaded). */
  start(): Promise<void>;
  /** Stop for good and remove the temp dir. */
  destroy(): Promise<void>;
}

export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-aof-'));
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();

  const start = async () => {
    child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        '--save',
        '',
        '--maxmemory-policy',
        'noeviction',
      ],
      { stdio: 'ignore' },
    );
    const c = child;
    exited = new Promise((resolve) => c.once('exit', () => resolve()));
    for (let i = 0; i < 200; i++) {
      if (await redisAnswersAt(url)) return;
      if (c.exitCode !== null) throw new Error(`redis-server exited with ${c.exitCode}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`redis-server on ${port} never answered`);
  };

  const shutdown = async () => {
    if (!child || child.exitCode !== null) return;
    const admin = new Redis(url, { maxRetriesPerRequest: 0, retryStrategy: () => null });
    admin.on('error', () => {});
    // SHUTDOWN closes the connection instead of answering.
    await admin.call('SHUTDOWN').catch(() => {});
    admin.disconnect();
    await exited;
  };

  await start();
  return {
    url,
    port,
    dir,
    shutdown,
    start,
    async destroy() {
      if (child && child.exitCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
