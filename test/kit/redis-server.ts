import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, redisAnswersAt } from './local-net.ts';

export interface LocalRedis {
  url: string;
  port: number;
  /** Stops it (SIGTERM) and removes its data directory. */
  stop(): Promise<void>;
  /** Kills it at once (SIGKILL), as a crashed machine would; `stop` still cleans up after. */
  kill(): void;
}

/**
 * A throwaway `redis-server` of a test's own on a free loopback port, started with `args`
 * (`--maxmemory-policy allkeys-lru`, `--appendonly yes`): for tests of the store's settings,
 * which must not change the suite's shared Redis. With `password` it requires one (in `url`).
 */
export async function startRedisServer(args: string[], password?: string): Promise<LocalRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'sy-redis-'));
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      ...(password ? ['--requirepass', password] : []),
      ...args,
    ],
    {
      stdio: 'ignore',
    },
  );
  const url = password ? `redis://:${password}@127.0.0.1:${port}` : `redis://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; i < 100; i++) {
    if (await redisAnswersAt(url)) return { url, port, stop, kill: () => void child.kill('SIGKILL') };
    await new Promise((r) => setTimeout(r, 50));
  }
  await stop();
  throw new Error(`redis-server on port ${port} never answered`);
}
