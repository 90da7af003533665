import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { createNodeMiddleware, Probot } from 'probot';
import { githubPayloads, signGitHubBody } from '../test/kit/github-webhook.ts';
import { builtEntry } from './built-product.ts';
import { BENCH_GITHUB_SECRET, githubBenchConfig, listening } from './kit.ts';
import type { BenchRow } from './row.ts';
import { quantile } from './stats.ts';

const EVENTS = 3000;
const WARMUP = 300;
const CONCURRENCY = 20;
const SECRET = BENCH_GITHUB_SECRET;

interface Signed {
  body: string;
  headers: Record<string, string>;
}

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
    const a = `${oursUrl}/webhooks/github`;
    const b = `${probotUrl}/api/github/webhooks`;
    await run(a, events(WARMUP));
    await run(b, events(WARMUP));
    // Two rounds each, alternating, every event a fresh delivery.
    const half = EVENTS / 2;
    const p1 = await run(a, events(half));
    const b1 = await run(b, events(half));
    const b2 = await run(b, events(half));
    const p2 = await run(a, events(half));
    return rows(merge(p1, p2), merge(b1, b2));
  } finally {
    if ('closeAllConnections' in ours) ours.closeAllConnections();
    probot.closeAllConnections();
    await Promise.all([
      new Promise((r) => ours.close(() => r(undefined))),
      new Promise((r) => probot.close(() => r(undefined))),
    ]);
    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (found.length) await redis.unlink(...found);
    } while (cursor !== '0');
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

function events(n: number): Signed[] {
  return Array.from({ length: n }, (_, i) => {
    const body = JSON.stringify(
      githubPayloads.mentionComment({ number: 1 + (i % 50), commentId: 20_000 + i }),
    );
    return {
      body,
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'issue_comment',
        'x-github-delivery': randomUUID(),
        'x-hub-signature-256': signGitHubBody(SECRET, body),
      },
    };
  });
}

interface RunResult {
  latencies: number[];
  seconds: number;
}

async function run(url: string, list: Signed[]): Promise<RunResult> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < list.length; i = next++) {
        const e = list[i] as Signed;
        const t = performance.now();
        const res = await fetch(url, { method: 'POST', headers: e.headers, body: e.body });
        await res.arrayBuffer();
        if (res.status >= 300) throw new Error(`bench: ${url} answered ${res.status}`);
        latencies.push(performance.now() - t);
      }
    }),
  );
  return { latencies, seconds: (performance.now() - started) / 1000 };
}

const merge = (x: RunResult, y: RunResult): RunResult => ({
  latencies: [...x.latencies, ...y.latencies],
  seconds: x.seconds + y.seconds,
});

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
