import { type ChildProcess, fork } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { builtProduct } from './built-product.ts';
import { signed } from './ingest-github.ts';
import { PROBOT_OK } from './probot.ts';
import { CONCURRENCY, rawLoad } from './raw-client.ts';
import type { BenchRow } from './row.ts';
import { quantile } from './stats.ts';

const WARMUP = 1000;
const EVENTS = 4000;
const ROUNDS = 5;
const KINDS = ['ours', 'probot', 'bare', 'floor'] as const;
type Kind = (typeof KINDS)[number];

interface Round {
  cpuMicros: number;
  /** Redis's own CPU per webhook over the same span (the bench's Redis serves nobody else meanwhile). */
  redisMicros: number;
  rate: number;
  latencies: number[];
}

/**
 * Issue 18, the webhook server alone: each server — ours, the Probot app, the bare HMAC server and
 * the storing floor (`ingest-floor.ts`) — runs in a process of its own, ours compiled as the
 * Docker image runs it (`built-product.ts`). This process feeds them the same signed mentions over
 * 20 kept-alive sockets with the light raw client (`raw-client.ts`) and reads the server process's
 * own CPU per webhook with `process.cpuUsage()` around the measured part, and Redis's from `INFO
 * cpu`. Unlike `ingest-github.ts` and `probot.ts`, whose client shares the servers' process and
 * event loop, the load generator's cost is not in the figures. Rounds alternate between the
 * servers; each figure is the median of its rounds (the machine's speed drifts between runs).
 */
export async function benchIngestCpu(): Promise<BenchRow[]> {
  const productDir = await builtProduct();
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  const results: Record<Kind, Round[]> = { ours: [], probot: [], bare: [], floor: [] };
  let offset = 0;
  try {
    for (let r = 0; r < ROUNDS; r++) {
      for (const kind of KINDS) {
        results[kind].push(await measure(kind, redis, offset, productDir));
        offset += WARMUP + EVENTS;
      }
    }
  } finally {
    redis.disconnect();
  }
  return rows(results);
}

async function measure(kind: Kind, redis: Redis, offset: number, productDir: string): Promise<Round> {
  const child = fork(new URL('./ingest-server.ts', import.meta.url).pathname, [kind], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BENCH_PRODUCT_DIR: productDir },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const { url } = (await reply(child, undefined)) as { url: string };
    const events = Array.from({ length: WARMUP + EVENTS }, (_, i) => signed(offset + i));
    await rawLoad(url, events.slice(0, WARMUP), CONCURRENCY, ANSWERS[kind]);
    const before = ((await reply(child, 'cpu')) as { cpu: NodeJS.CpuUsage }).cpu;
    const redisBefore = await redisCpuMicros(redis);
    const started = performance.now();
    const latencies = await rawLoad(url, events.slice(WARMUP), CONCURRENCY, ANSWERS[kind]);
    const seconds = (performance.now() - started) / 1000;
    const redisAfter = await redisCpuMicros(redis);
    const after = ((await reply(child, 'cpu')) as { cpu: NodeJS.CpuUsage }).cpu;
    const cpu = after.user - before.user + after.system - before.system;
    return {
      cpuMicros: cpu / EVENTS,
      redisMicros: (redisAfter - redisBefore) / EVENTS,
      rate: EVENTS / seconds,
      latencies,
    };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.send('stop');
    await exited;
  }
}

/** Redis's CPU so far (user + system), in µs, from `INFO cpu`. */
async function redisCpuMicros(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  const field = (name: string) => Number(new RegExp(`${name}:([0-9.]+)`).exec(info)?.[1] ?? Number.NaN);
  return (field('used_cpu_user') + field('used_cpu_sys')) * 1e6;
}

/** The child's next message, after sending `message` (if any). */
function reply(child: ChildProcess, message: string | undefined): Promise<unknown> {
  return new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`bench server exited (${code})`)));
    if (message) child.send(message);
  });
}

/** What each server answers a new delivery: Probot 200, the others 202 (stored or checked). */
const ANSWERS: Record<Kind, number[]> = { ours: [202], probot: [PROBOT_OK], bare: [202], floor: [202] };

const median = (xs: number[]) => quantile(xs, 0.5);

const BASELINES: Record<Kind, string> = {
  ours: 'ours',
  probot: 'the Probot app of probot.ts',
  bare: 'the bare node:http HMAC server',
  floor: 'the storing floor of ingest-floor.ts (bare + one MSET per turn)',
};

function rows(r: Record<Kind, Round[]>): BenchRow[] {
  const round = (x: number) => Math.round(x * 100) / 100;
  const cpu = (k: Kind) => median(r[k].map((x) => x.cpuMicros));
  const redisCpu = (k: Kind) => median(r[k].map((x) => x.redisMicros));
  const rate = (k: Kind) => median(r[k].map((x) => x.rate));
  const p50 = (k: Kind) => median(r[k].map((x) => quantile(x.latencies, 0.5)));
  const note = (k: Kind) =>
    `${EVENTS} signed issue_comment mentions × ${ROUNDS} rounds, concurrency ${CONCURRENCY}, each server in its own process, client in another; baseline: ${BASELINES[k]}`;
  const row = (name: string, value: number, baseline: number, unit: string, k: Kind): BenchRow => ({
    name,
    value: round(value),
    unit,
    baseline: round(baseline),
    ratio: round(value / baseline),
    note: note(k),
  });
  return [
    row('github ingest server CPU per webhook vs Probot', cpu('ours'), cpu('probot'), 'µs', 'probot'),
    row(
      'github ingest Redis CPU per webhook vs Probot',
      redisCpu('ours'),
      redisCpu('probot'),
      'µs',
      'probot',
    ),
    row('github ingest server throughput vs Probot', rate('ours'), rate('probot'), 'webhooks/s', 'probot'),
    row('github ingest server answer p50 vs Probot', p50('ours'), p50('probot'), 'ms', 'probot'),
    row('github ingest server CPU per webhook vs bare HMAC', cpu('ours'), cpu('bare'), 'µs', 'bare'),
    row('github ingest server throughput vs bare HMAC', rate('ours'), rate('bare'), 'webhooks/s', 'bare'),
    row(
      'github ingest storing floor throughput vs bare HMAC',
      rate('floor'),
      rate('bare'),
      'webhooks/s',
      'bare',
    ),
    row(
      'github ingest server throughput vs storing floor',
      rate('ours'),
      rate('floor'),
      'webhooks/s',
      'floor',
    ),
  ];
}

// `npx tsx bench/ingest-cpu.ts` runs this bench alone.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${JSON.stringify(await benchIngestCpu(), null, 2)}\n`);
}
