import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { Worker } from 'bullmq';
import { ingest, loadCard } from '../src/cards/ingest.ts';
import { loadConfig } from '../src/config.ts';
import type { Ctx } from '../src/context.ts';
import { closeContext, createContext } from '../src/create-context.ts';
import { startMainWorker } from '../src/router/main/main-worker.ts';
import { routeCard } from '../src/router/route-card.ts';
import { createRuntime } from '../src/runtime.ts';
import { addTicketRefs, createTicket } from '../src/tickets/ticket-store.ts';
import { localMessage } from '../test/integration/routing/helpers.ts';
import { startFakeLlm } from '../test/kit/fake-llm.ts';
import { openAll, roleOf, scriptedModel } from '../test/kit/scripted-model.ts';
import { deletePrefix } from './kit.ts';
import type { BenchRow } from './row.ts';
import { quantile, timed } from './stats.ts';

const PLACED = 2000;
const BURST = 100;

/**
 * Issue 3 `bench/`: cards placed by code (explicit reference → attach) per second and p99, against
 * a same-run baseline of one bare card read per card; and the main-session model requests a burst
 * of 100 unplaced cards costs, against the naive one request per card.
 */
export async function benchRouting(
  redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
): Promise<BenchRow[]> {
  const llm = await startFakeLlm();
  llm.respond(scriptedModel({ main: openAll }));
  const config = loadConfig({
    REDIS_URL: redisUrl,
    KEY_PREFIX: `bench-rt-${randomUUID().slice(0, 8)}`,
    LOG_LEVEL: 'silent',
    LLM_BASE_URL: llm.baseURL,
    LLM_API_KEY: 'bench',
  });
  const ctx = createContext(config);
  let worker: Worker | undefined;
  try {
    const placed = await benchPlaced(ctx);
    const rt = await createRuntime(ctx);
    const mainRequests = () => llm.requests.filter((r) => roleOf(r) === 'main').length;
    worker = startMainWorker(rt);
    // Issue 30: the placed follow-ups are notices from someone who may steer the ticket, which
    // start main turns of their own; they are drained (and counted) before the burst is measured.
    const followUps = await drainMain(ctx, mainRequests);
    const requests = await burst(ctx, mainRequests);
    return [
      ...placed,
      {
        name: `main-session model requests for ${PLACED} follow-ups placed by code`,
        value: followUps,
        unit: 'requests',
        baseline: PLACED,
        ratio: followUps / PLACED,
        note: 'steering follow-ups queued before the main worker starts (newest 100 notices kept); baseline: one request per follow-up',
      },
      {
        name: `main-session model requests for ${BURST} burst candidates`,
        value: requests,
        unit: 'requests',
        baseline: BURST,
        ratio: requests / BURST,
        note: 'baseline: one request per card',
      },
    ];
  } finally {
    await worker?.close();
    await deletePrefix(ctx.redis, config.KEY_PREFIX);
    await closeContext(ctx);
    await llm.close();
  }
}

async function benchPlaced(ctx: Ctx): Promise<BenchRow[]> {
  const seed = await ingest(ctx, localMessage('seed'));
  if (seed.kind !== 'new') throw new Error('seed not new');
  const ticket = await createTicket(ctx, seed.card, { why: 'bench' });
  await addTicketRefs(ctx, ticket.id, ['msg:bench-thread']);
  const ids: string[] = [];
  for (let i = 0; i < PLACED; i++) {
    const r = await ingest(ctx, localMessage(`follow-up ${i}`, { replyTo: 'bench-thread' }));
    if (r.kind === 'new') ids.push(r.card.id);
  }
  const base = await timed(ids, 16, (id) => loadCard(ctx, id));
  const run = await timed(ids, 16, (id) => routeCard(ctx, id));
  const perSec = (t: { totalMs: number }) => (ids.length / t.totalMs) * 1000;
  const note = `${ids.length} cards, 16 at a time; baseline: one card read per card, same run`;
  return [
    {
      name: 'routing by code, cards/s',
      value: perSec(run),
      unit: 'cards/s',
      baseline: perSec(base),
      ratio: perSec(run) / perSec(base),
      note,
    },
    {
      name: 'routing by code, p99',
      value: quantile(run.ms, 0.99),
      unit: 'ms',
      baseline: quantile(base.ms, 0.99),
      ratio: quantile(run.ms, 0.99) / quantile(base.ms, 0.99),
      note,
    },
  ];
}

/** Lets the main worker finish every turn already scheduled; the model requests they took. */
async function drainMain(ctx: Ctx, mainRequests: () => number): Promise<number> {
  const before = mainRequests();
  const end = Date.now() + 30_000;
  while (Date.now() < end) {
    const counts = await ctx.queues.main.getJobCounts('active', 'waiting', 'delayed', 'prioritized');
    if (Object.values(counts).every((n) => n === 0)) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return mainRequests() - before;
}

async function burst(ctx: Ctx, mainRequests: () => number): Promise<number> {
  const before = mainRequests();
  const ids = await Promise.all(
    Array.from({ length: BURST }, async (_, i) => {
      const r = await ingest(ctx, localMessage(`unplaced request ${i}`));
      if (r.kind !== 'new') throw new Error('burst card not new');
      return r.card.id;
    }),
  );
  // The route queue has no worker here: place each card as its job would.
  await Promise.all(ids.map((id) => routeCard(ctx, id)));
  const end = Date.now() + 30_000;
  while (Date.now() < end) {
    const left = await ctx.redis.zcard(ctx.keys.candidates());
    const routed = await ctx.redis.zcard(ctx.keys.tickets());
    if (left === 0 && routed >= BURST + 1) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  // The whole turn counts, its closing request too (it may come after the last ticket opened).
  await drainMain(ctx, mainRequests);
  return mainRequests() - before;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${JSON.stringify(await benchRouting(), null, 2)}\n`);
}
