import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { Redis } from 'ioredis';
import { productEntry } from './built-product.ts';
import { storingVerifier } from './ingest-floor.ts';
import { bareVerifier } from './ingest-github.ts';
import { closeServer, deletePrefix, githubBenchConfig, listening } from './kit.ts';
import { probotServer } from './probot.ts';

/**
 * One webhook server in a process of its own, for `ingest-cpu.ts` (issue 18): `ours` (the
 * product's web process), `probot` (the Probot app of `probot.ts`), `bare` (the HMAC-only server
 * of `ingest-github.ts`) or `floor` (the bare server storing each turn's bodies,
 * `ingest-floor.ts`). It tells its parent its URL, answers `cpu` with its `process.cpuUsage()`,
 * and on `stop` closes, drops its keys and exits. `ours` is the compiled product in
 * `BENCH_PRODUCT_DIR` (`built-product.ts`) when that is set, else the sources.
 */
const kind = process.argv[2];
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `bench-cpu-${randomUUID().slice(0, 8)}`;
const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });

async function start(): Promise<{ server: Server; path: string; close: () => Promise<void> }> {
  if (kind === 'bare')
    return { server: bareVerifier().listen(0, '127.0.0.1'), path: '/', close: async () => {} };
  if (kind === 'floor') {
    const server = storingVerifier(redis, `${prefix}:floor`).listen(0, '127.0.0.1');
    return { server, path: '/', close: async () => {} };
  }
  if (kind === 'probot') {
    const server = await probotServer(redis, `${prefix}:probot`);
    return { server, path: '/api/github/webhooks', close: async () => {} };
  }
  const { createContext, closeContext, serveApp } = await productEntry(process.env.BENCH_PRODUCT_DIR);
  const config = githubBenchConfig(redisUrl, prefix);
  const ctx = createContext(config);
  const server = serveApp(ctx, [], { port: 0, hostname: '127.0.0.1' }) as Server;
  return { server, path: '/webhooks/github', close: () => closeContext(ctx) };
}

const { server, path, close } = await start();
const url = `${await listening(server)}${path}`;
process.on('message', (m) => {
  if (m === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  if (m === 'stop') {
    void (async () => {
      await closeServer(server);
      await close();
      await deletePrefix(redis, prefix);
      redis.disconnect();
      process.exit(0);
    })();
  }
});
process.send?.({ url });
