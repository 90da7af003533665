import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { startFeishuLongConnection } from './channels/feishu/ws/start-long-connection.ts';
import type { Config } from './config.ts';
import type { Ctx } from './context.ts';
import { closeContext, createContext } from './create-context.ts';
import { startupDoctor } from './doctor/startup-doctor.ts';
import { logSandbox } from './executor/sandbox/log-sandbox.ts';
import { createLogger } from './logger.ts';
import { secretValuesOf } from './redact-log.ts';
import { createRuntime, type Runtime } from './runtime.ts';
import { startMemoryWatch } from './safety/memory-watch.ts';
import { listenProblem, startupWarnings } from './startup-lines.ts';
import { startDepthSampler } from './stats/depth-sampler.ts';
import type { LocalRedis } from './store/local-redis-server.ts';
import { migrateStore } from './store/migrations/migrate-store.ts';
import { startTracing } from './tracing/start.ts';
import { apiRoutes } from './web/api-routes.ts';
import { createHealthApp } from './web/health-routes.ts';
import { serveApp } from './web/serve-app.ts';
import { startWorkers } from './workers.ts';

/**
 * The product on a configuration that holds (`main.ts` checked it): Redis, HTTP server and workers
 * by ROLE; graceful shutdown on SIGTERM/SIGINT.
 */
export async function startBot(config: Config, localRedis: LocalRedis['started']): Promise<void> {
  const log = createLogger(config.LOG_LEVEL, { role: config.ROLE }, { secrets: secretValuesOf(config) });
  if (localRedis) log.info({ dir: localRedis.dir }, localRedis.line);
  // Issue 17: before anything can start a span; nothing is loaded when no endpoint is set.
  const tracing = await startTracing(config);
  const ctx = createContext(config, { log, defaultMetrics: true });
  announce(ctx, Boolean(tracing));
  await migrateOrExit(ctx);
  const rt = await createRuntime(ctx);
  const stops = await startServices(ctx, rt);
  // In the background: start-up never waits for outside services (issue 12).
  startupDoctor(ctx, rt);
  stopOnSignals(ctx, stops, async () => {
    await localRedis?.stop();
    await tracing?.shutdown().catch((err) => log.warn({ err }, 'tracing shutdown failed'));
  });
}

/** One line of what is on and off, and what is off for want of a setting said as what to set. */
function announce({ config, log }: Ctx, tracing: boolean): void {
  const channels = [
    feishuLine(config),
    config.githubEnabled
      ? 'github on'
      : 'github off (no GITHUB_WEBHOOK_SECRET with GITHUB_TOKEN or GITHUB_APP_ID)',
    config.LLM_API_KEY ? 'model on' : 'model off (no LLM_API_KEY)',
    tracing ? 'tracing on (OTLP/HTTP)' : 'tracing off (no OTEL_EXPORTER_OTLP_ENDPOINT)',
  ];
  log.info({ channels }, `channels: ${channels.join(', ')}`);
  // Issue 32: what is off for want of a setting is said as what to set.
  for (const line of startupWarnings(config)) log.warn(line);
}

/** Issue 20: the stored data is brought to this release's schema before anything reads it. */
async function migrateOrExit(ctx: Ctx): Promise<void> {
  const migrated = await migrateStore(ctx).catch((err: Error) => {
    ctx.log.fatal({ err: { name: err.name, message: err.message } }, 'cannot migrate the stored data');
    process.exit(1);
  });
  if (migrated.applied.length) ctx.log.info(migrated, 'stored data migrated');
}

/**
 * What this ROLE runs — workers, the HTTP server, the Feishu long connection, the samplers — and
 * the steps that stop them, in the order shutdown takes them: requests stop first.
 */
async function startServices(ctx: Ctx, rt: Runtime): Promise<(() => Promise<unknown>)[]> {
  const { config } = ctx;
  const stops: (() => Promise<unknown>)[] = [];
  if (config.ROLE !== 'web') {
    await logSandbox(ctx.log, ctx.config);
    const workers = await startWorkers(ctx, rt);
    stops.push(workers.stop);
  }
  const server = serveHttp(ctx, rt);
  // Issue 32: a port in use (or not ours to take) is one line naming the variable, not a stack trace.
  server?.on('error', (err: NodeJS.ErrnoException) => {
    process.stderr.write(`${listenProblem(config, err)}\n`);
    process.exit(1);
  });
  // Stop taking requests first; in-flight webhooks finish (they only touch Redis).
  if (server) stops.unshift(() => new Promise((resolve) => server.close(() => resolve(undefined))));
  // Issue 16: web processes compete for the one Feishu long connection; it closes first on shutdown.
  const feishuWs = config.ROLE === 'worker' ? undefined : startFeishuLongConnection(ctx);
  if (feishuWs) stops.unshift(feishuWs.stop);
  // Issue 17: web processes keep the queue-depth chart's rolling history (one sample a minute).
  if (config.ROLE !== 'worker') stops.unshift(startDepthSampler(ctx).stop);
  // Issue 31: a warning before a full Redis (noeviction) refuses writes; web processes watch.
  if (config.ROLE !== 'worker') stops.unshift(startMemoryWatch(ctx).stop);
  return stops;
}

/**
 * SIGTERM or SIGINT: each stop in turn (a failed one logged, the rest still run), the context,
 * then `last`; exit 0, or 1 when it all takes past SHUTDOWN_GRACE_MS.
 */
function stopOnSignals(ctx: Ctx, stops: (() => Promise<unknown>)[], last: () => Promise<void>): void {
  const { config, log } = ctx;
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), config.SHUTDOWN_GRACE_MS);
    force.unref();
    for (const stop of stops) await stop().catch((err) => log.error({ err }, 'shutdown step failed'));
    await closeContext(ctx);
    await last();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

function feishuLine(config: Config): string {
  if (!config.feishuEnabled) return 'feishu off (no FEISHU_APP_ID/FEISHU_APP_SECRET)';
  return config.feishuEventMode === 'ws'
    ? 'feishu on (events over the long connection)'
    : 'feishu on (events at POST /webhooks/feishu)';
}

/**
 * The whole HTTP surface on PORT; a worker serves /healthz and /readyz only, on HEALTH_PORT when
 * set (issue 16: a container health check for every role), and no port otherwise.
 */
function serveHttp(ctx: Ctx, rt: Runtime): ServerType | undefined {
  const { config, log } = ctx;
  const worker = config.ROLE === 'worker';
  const port = worker ? config.HEALTH_PORT : config.PORT;
  if (port === undefined) return undefined;
  const onListening = (info: AddressInfo) =>
    log.info(
      { port: info.port },
      `listening on ${config.HOST}:${info.port}${worker ? ' (health only)' : ''}`,
    );
  if (!worker) return serveApp(ctx, apiRoutes(ctx, rt), { port, hostname: config.HOST }, onListening);
  return serve({ fetch: createHealthApp(ctx).fetch, port, hostname: config.HOST }, onListening);
}
