import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../src/config.ts';
import { startFakeFeishu } from '../test/kit/fake-feishu.ts';
import { feishuRequest, groupMention } from '../test/kit/feishu-webhook.ts';
import { builtEntry } from './built-product.ts';
import { closeServer, deletePrefix, listening } from './kit.ts';
import { alternating, CONCURRENCY, type Delivery, type RunResult } from './raw-client.ts';
import type { BenchRow } from './row.ts';
import { quantile } from './stats.ts';

const EVENTS = 2000;
const WARMUP = 200;
const ENCRYPT_KEY = 'bench-encrypt-key';
const TOKEN = 'bench-verify-token';

/**
 * Issue 2 `bench/`: signed, encrypted Feishu @-mentions per second and p50/p99 latency to the
 * HTTP answer through the real server (signature, decryption, SDK dispatch, card, ingest in
 * Redis with its "seen" reaction and routing job), against a same-run baseline of a bare
 * `node:http` server that only checks the signature. Loopback only; no workers run, so nothing
 * is sent to Feishu (the fake only answers the bot-info lookup). The product runs compiled
 * (`built-product.ts`); the load comes from the light raw client, rounds alternating.
 */
export async function benchFeishuIngest(
  redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
): Promise<BenchRow[]> {
  const { createContext, closeContext, serveApp } = await builtEntry();
  const feishu = await startFakeFeishu();
  const config = loadConfig({
    REDIS_URL: redisUrl,
    KEY_PREFIX: `bench-fs-${randomUUID().slice(0, 8)}`,
    LOG_LEVEL: 'silent',
    FEISHU_APP_ID: feishu.appId,
    FEISHU_APP_SECRET: feishu.appSecret,
    FEISHU_ENCRYPT_KEY: ENCRYPT_KEY,
    FEISHU_VERIFICATION_TOKEN: TOKEN,
    FEISHU_DOMAIN: feishu.url,
    // Issue 31: every event is one person's in one chat; the limits count but never refuse.
    INGEST_RATE_PER_AUTHOR: '1000000000',
    INGEST_RATE_PER_REPO: '1000000000',
  });
  const ctx = createContext(config);
  const app = serveApp(ctx, [], { port: 0, hostname: '127.0.0.1' });
  const bare = bareVerifier().listen(0, '127.0.0.1');
  try {
    const [appUrl, bareUrl] = await Promise.all([listening(app), listening(bare)]);
    // Pushes are signed just before the runs: the product refuses timestamps older than 5 minutes.
    const pushes = (n: number) => Array.from({ length: n }, (_, i) => push(i, feishu.bot.openId));
    const [product, baseline] = await alternating(
      { url: `${appUrl}/webhooks/feishu`, accepted: 200 },
      { url: bareUrl, accepted: 200 },
      pushes(WARMUP),
      pushes(EVENTS),
    );
    return rows(product, baseline);
  } finally {
    await Promise.all([closeServer(app), closeServer(bare)]);
    await deletePrefix(ctx.redis, config.KEY_PREFIX);
    await closeContext(ctx);
    await feishu.close();
  }
}

/** A group @-mention per push, each its own event id: every one is a new card (the full path). */
function push(i: number, botOpenId: string): Delivery {
  const event = groupMention(`bench request ${i} about acme/app#${1 + (i % 50)}`, botOpenId, {
    token: TOKEN,
  });
  return feishuRequest(event, { encryptKey: ENCRYPT_KEY });
}

/** The baseline: read the body, check X-Lark-Signature in constant time, answer 200. Nothing else. */
function bareVerifier(): Server {
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const ts = String(req.headers['x-lark-request-timestamp'] ?? '');
      const nonce = String(req.headers['x-lark-request-nonce'] ?? '');
      const want = Buffer.from(
        createHash('sha256')
          .update(ts + nonce + ENCRYPT_KEY)
          .update(Buffer.concat(chunks))
          .digest('hex'),
      );
      const got = Buffer.from(String(req.headers['x-lark-signature'] ?? ''));
      const ok = got.length === want.length && timingSafeEqual(got, want);
      res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' }).end('{}');
    });
  });
}

function rows(p: RunResult, b: RunResult): BenchRow[] {
  const round = (x: number) => Math.round(x * 100) / 100;
  const rate = (r: RunResult) => r.latencies.length / r.seconds;
  const note = `${EVENTS} signed+encrypted group @-mentions, concurrency ${CONCURRENCY}, loopback, rounds alternating; baseline: bare node:http signature check`;
  const row = (name: string, value: number, baseline: number, unit: string): BenchRow => ({
    name,
    value: round(value),
    unit,
    baseline: round(baseline),
    ratio: round(value / baseline),
    note,
  });
  return [
    row('feishu ingest throughput', rate(p), rate(b), 'events/s'),
    row('feishu ingest answer p50', quantile(p.latencies, 0.5), quantile(b.latencies, 0.5), 'ms'),
    row('feishu ingest answer p99', quantile(p.latencies, 0.99), quantile(b.latencies, 0.99), 'ms'),
  ];
}

// `npx tsx bench/ingest-feishu.ts` runs this bench alone.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${JSON.stringify(await benchFeishuIngest(), null, 2)}\n`);
}
