import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { pathToFileURL } from 'node:url';
import { githubPayloads, signGitHubBody } from '../test/kit/github-webhook.ts';
import { builtEntry } from './built-product.ts';
import { asDelivered } from './delivered.ts';
import { BENCH_GITHUB_SECRET, closeServer, deletePrefix, githubBenchConfig, listening } from './kit.ts';
import { alternating, CONCURRENCY, type Delivery, type RunResult } from './raw-client.ts';
import type { BenchRow } from './row.ts';
import { quantile } from './stats.ts';

const EVENTS = 4000;
const WARMUP = 1000;
const SECRET = BENCH_GITHUB_SECRET;

export interface Signed extends Delivery {
  body: string;
}

/**
 * Issue 2 `bench/`: signed GitHub webhooks per second and p50/p99 latency to the HTTP answer
 * through the real server (verify, parse, card, ingest in Redis with its "seen" reaction and routing
 * job), against a same-run baseline of a bare `node:http` server that only checks the HMAC. The
 * product runs compiled, as the Docker image runs it (`built-product.ts`).
 */
export async function benchGitHubIngest(
  redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
): Promise<BenchRow[]> {
  const { createContext, closeContext, serveApp } = await builtEntry();
  const config = githubBenchConfig(redisUrl, `bench-gh-${randomUUID().slice(0, 8)}`);
  const ctx = createContext(config);
  const app = serveApp(ctx, [], { port: 0, hostname: '127.0.0.1' });
  const bare = bareVerifier().listen(0, '127.0.0.1');
  try {
    const [appUrl, bareUrl] = await Promise.all([listening(app), listening(bare)]);
    const events = Array.from({ length: WARMUP + EVENTS }, (_, i) => signed(i));
    const [product, baseline] = await alternating(
      { url: `${appUrl}/webhooks/github`, accepted: 202 },
      { url: bareUrl, accepted: 202 },
      events.slice(0, WARMUP),
      events.slice(WARMUP),
    );
    return rows(product, baseline);
  } finally {
    await Promise.all([closeServer(app), closeServer(bare)]);
    await deletePrefix(ctx.redis, config.KEY_PREFIX);
    await closeContext(ctx);
  }
}

/**
 * A mention comment per event, each its own delivery of its own comment, with the body GitHub
 * would send (`delivered.ts`): every one is a new card (the full path).
 */
export function signed(i: number): Signed {
  const comment = githubPayloads.mentionComment({ number: 1 + (i % 50), commentId: 10_000 + i });
  const body = JSON.stringify(asDelivered(comment, i));
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'issue_comment',
      'x-github-delivery': randomUUID(),
      'x-hub-signature-256': signGitHubBody(SECRET, body),
    },
  };
}

/** The baseline: read the body, check the HMAC in constant time, answer 202. Nothing else. */
export function bareVerifier(): Server {
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const ok = bareSignatureOk(req, Buffer.concat(chunks));
      res.writeHead(ok ? 202 : 401, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
}

/** The baseline servers' check: `X-Hub-Signature-256` against the body, in constant time. */
export function bareSignatureOk(req: IncomingMessage, body: Buffer): boolean {
  const hmac = createHmac('sha256', SECRET).update(body).digest('hex');
  const want = Buffer.from(`sha256=${hmac}`);
  const got = Buffer.from(String(req.headers['x-hub-signature-256'] ?? ''));
  return got.length === want.length && timingSafeEqual(got, want);
}

function rows(p: RunResult, b: RunResult): BenchRow[] {
  const round = (x: number) => Math.round(x * 100) / 100;
  const rate = (r: RunResult) => r.latencies.length / r.seconds;
  const note = `${EVENTS} signed issue_comment mentions, concurrency ${CONCURRENCY}, loopback, rounds alternating; baseline: bare node:http HMAC check`;
  const row = (name: string, value: number, baseline: number, unit: string): BenchRow => ({
    name,
    value: round(value),
    unit,
    baseline: round(baseline),
    ratio: round(value / baseline),
    note,
  });
  return [
    row('github ingest throughput', rate(p), rate(b), 'events/s'),
    row('github ingest answer p50', quantile(p.latencies, 0.5), quantile(b.latencies, 0.5), 'ms'),
    row('github ingest answer p99', quantile(p.latencies, 0.99), quantile(b.latencies, 0.99), 'ms'),
  ];
}

// `npx tsx bench/ingest-github.ts` runs this bench alone.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${JSON.stringify(await benchGitHubIngest(), null, 2)}\n`);
}
