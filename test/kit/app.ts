import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { loadConfig } from '../../src/config.ts';
import type { Ctx } from '../../src/context.ts';
import { closeContext, createContext } from '../../src/create-context.ts';
import { createLogger } from '../../src/logger.ts';
import { secretValuesOf } from '../../src/redact-log.ts';
import { createRuntime } from '../../src/runtime.ts';
import { migrateStore } from '../../src/store/migrations/migrate-store.ts';
import { apiRoutes } from '../../src/web/api-routes.ts';
import { serveApp } from '../../src/web/serve-app.ts';
import { startWorkers } from '../../src/workers.ts';
import { dropKeysStartingWith, freshPrefix, redisUrl } from './redis.ts';

export interface TestApp {
  ctx: Ctx;
  /** `http://127.0.0.1:PORT` of the real server. */
  url: string;
  close(): Promise<void>;
  /** Which step of `close` is under way (or `done`): what a close that hangs is waiting on. */
  closing(): string;
}

/**
 * The real product in-process for an integration test: its own key prefix on the suite's Redis,
 * the real HTTP server on a free port, and (unless `workers: false`) the real workers.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  opts: { workers?: boolean } = {},
): Promise<TestApp> {
  const minted = freshPrefix();
  const config = loadConfig({
    REDIS_URL: redisUrl(),
    KEY_PREFIX: minted,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    // The kit's fake model is DeepSeek (the default provider): speak its contract to it (issue 12).
    LLM_PROVIDER: 'deepseek',
    METRICS_TOKEN: TEST_METRICS_TOKEN,
    ...TEST_RETRY_ENV,
    ...env,
  });
  const ctx = createContext(config, {
    log: createLogger(config.LOG_LEVEL, {}, { secrets: secretValuesOf(config) }),
  });
  // As at start-up (src/main.ts): the stored data is migrated before anything reads it (issue 20).
  await migrateStore(ctx);
  const runtime = await createRuntime(ctx);
  const workers = opts.workers === false ? undefined : await startWorkers(ctx, runtime);
  // Every BullMQ connection done with its start-up (INFO) before the test runs: a test that closes
  // the app at once would otherwise cut one off mid-reply, an unhandled "Connection is closed".
  await Promise.all([
    ...Object.values(ctx.queues).map((q) => q.waitUntilReady()),
    ...(workers?.workers ?? []).map((w) => w.waitUntilReady()),
  ]);
  // The product's own server (src/main.ts): the webhook fast path in front of Hono (issue 18).
  const server = serveApp(ctx, apiRoutes(ctx, runtime), { port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  let step = 'open';
  const close = () => {
    closing ??= (async () => {
      step = 'the HTTP server';
      await new Promise((resolve) => server.close(() => resolve(undefined)));
      step = 'the workers (active jobs finishing)';
      await workers?.stop();
      const ownKeys =
        ctx.redis instanceof Redis && config.REDIS_URL === redisUrl() && config.KEY_PREFIX === minted;
      step = 'dropping its keys';
      if (ownKeys) await dropOwnKeys(ctx.redis as Redis, minted);
      step = 'the context (intake, queues, Redis)';
      await closeContext(ctx);
      step = 'done';
    })();
    return closing;
  };
  return { ctx, url: `http://127.0.0.1:${port}`, close, closing: () => step };
}

/**
 * Deletes the keys of a prefix the kit minted, on the suite's Redis: a test that gave its own
 * `KEY_PREFIX` (one app after another on the same data) keeps them. Best effort, within 5 s: a
 * slow shared Redis never fails the test's close.
 */
async function dropOwnKeys(redis: Redis, prefix: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, 5_000);
  });
  await Promise.race([dropKeysStartingWith(redis, `${prefix}:`).catch(() => 0), late]);
  clearTimeout(timer);
}

/**
 * Issue 28 "model outages": the product backs off about a minute before a model request fails and
 * runs a failed executor turn again later. Tests fail fast unless they say otherwise: 0.5, 1 and
 * 2 s of back-off (four attempts; the jitter of ±20 % never makes it three or five), and a person
 * asked at the first failed turn. GitHub writes go unspaced: the loopback GitHub has no secondary
 * rate limit (`sender.test.ts` checks the spacing at its default).
 */
export const TEST_RETRY_ENV = {
  LLM_RETRY_TOTAL_MS: '2500',
  LLM_OUTAGE_TURN_RETRIES: '0',
  GITHUB_WRITE_SPACING_MS: '0',
};

/** The `/metrics` bearer token every test app has unless its env says otherwise (issue 14). */
export const TEST_METRICS_TOKEN = 'test-metrics-token-0123456789';

/** The Prometheus text of a test app's `/metrics`, fetched with the test token. */
export async function metricsText(url: string): Promise<string> {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TEST_METRICS_TOKEN}` } });
  if (!res.ok) throw new Error(`/metrics answered ${res.status}`);
  return res.text();
}

/** Polls `check` until it returns a truthy value or `timeoutMs` passes (then throws with `what`). */
export async function waitFor<T>(
  check: () => Promise<T> | T,
  what: string,
  timeoutMs = 10_000,
): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
