import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { createNodeMiddleware, Probot } from 'probot';
import { builtEntry } from './built-product.ts';
import { type Signed, signed } from './ingest-github.ts';
import { BENCH_GITHUB_SECRET, closeServer, deletePrefix, githubBenchConfig, listening } from './kit.ts';
import { alternating, CONCURRENCY, type RunResult } from './raw-client.ts';
import type { BenchRow } from './row.ts';
import { quantile } from './stats.ts';

const EVENTS = 3000;
const WARMUP = 300;
const SECRET = BENCH_GITHUB_SECRET;
/** Probot's middleware answers a handled webhook 200 (ours 202). */
export const PROBOT_OK = 200;
/** Comment ids apart from `ingest-github.ts`'s own run (its webhooks are `signed(0…)`). */
const EVENT_OFFSET = 10_000;

/**
 * Issue 8: the framework baseline. A Probot app (Probot 14, `createNodeMiddleware`) receives the
 * same signed `issue_comment` webhooks and does the comparable work — Probot verifies the
 * signature and parses, the app dedupes the delivery and stores one record in Redis (`SET NX` +
 * `SET` in one `MULTI`) — against our `/webhooks/github`, which also builds the trigger card and
 * enqueues its "seen" reaction and routing job (two BullMQ jobs). Same Redis, same run,
 * alternating rounds so neither gets the quieter moment. Ours runs compiled, as the Docker image
 * runs it (`built-product.ts`); Probot's code is JavaScript already.
 */
export async function benchProbot(
  redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
): Promise<BenchRow[]> {
  const { createContext, closeContext, serveApp } = await builtEntry();
  const prefix = `bench-pb-${randomUUID().slice(0, 8)}`;
  const config = githubBenchConfig(redisUrl, prefix);
  const ctx = createContext(config);
  const ours = serveApp(ctx, [], { port: 0, hostname: '127.0.0.1' });
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const probot = await probotServer(redis, `${prefix}:probot`);
  try {
    const [oursUrl, probotUrl] = await Promise.all([listening(ours), listening(probot)]);
    // Every webhook its own comment: a comment delivered twice is a replay (issue 14), cheaper.
    const all = events(WARMUP + EVENTS);
    const [p, b] = await alternating(
      { url: `${oursUrl}/webhooks/github`, accepted: 202 },
      { url: `${probotUrl}/api/github/webhooks`, accepted: PROBOT_OK },
      all.slice(0, WARMUP),
      all.slice(WARMUP),
    );
    return rows(p, b);
  } finally {
    await Promise.all([closeServer(ours), closeServer(probot)]);
    await deletePrefix(redis, prefix);
    redis.disconnect();
    await closeContext(ctx);
  }
}

/** The Probot app: on a comment, dedupe the delivery and store one record, as our ingest stores a card. */
export async function probotServer(redis: Redis, prefix: string): Promise<Server> {
  const probot = new Probot({ githubToken: 'bench-token', secret: SECRET, log: pino({ level: 'silent' }) });
  const middleware = await createNodeMiddleware(
    (app) => {
      app.on('issue_comment.created', async (context) => {
        const record = JSON.stringify({
          id: context.id,
          repo: context.payload.repository.full_name,
          number: context.payload.issue.number,
          author: context.payload.comment.user?.login,
          text: context.payload.comment.body,
          receivedAt: Date.now(),
        });
        await redis
          .multi()
          .set(`${prefix}:seen:${context.id}`, '1', 'EX', 3600, 'NX')
          .set(`${prefix}:record:${context.id}`, record, 'EX', 3600)
          .exec();
      });
    },
    { probot },
  );
  return createServer((req, res) => {
    void middleware(req, res, () => {
      res.writeHead(404).end();
    });
  }).listen(0, '127.0.0.1');
}

/** `n` signed mentions, each a fresh delivery, numbered after the other benches' own. */
const events = (n: number): Signed[] => Array.from({ length: n }, (_, i) => signed(EVENT_OFFSET + i));

function rows(p: RunResult, b: RunResult): BenchRow[] {
  const rate = (r: RunResult) => r.latencies.length / r.seconds;
  const note = `${EVENTS} signed issue_comment webhooks each, concurrency ${CONCURRENCY}; baseline: Probot 14 app verifying, parsing, storing one record in Redis`;
  const row = (name: string, value: number, baseline: number, unit: string): BenchRow => ({
    name,
    value,
    unit,
    baseline,
    ratio: value / baseline,
    note,
  });
  return [
    row('github ingest vs Probot: throughput', rate(p), rate(b), 'webhooks/s'),
    row('github ingest vs Probot: answer p50', quantile(p.latencies, 0.5), quantile(b.latencies, 0.5), 'ms'),
    row(
      'github ingest vs Probot: answer p99',
      quantile(p.latencies, 0.99),
      quantile(b.latencies, 0.99),
      'ms',
    ),
  ];
}

// `npx tsx bench/probot.ts` runs this bench alone.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${JSON.stringify(await benchProbot(), null, 2)}\n`);
  process.exit(0);
}
