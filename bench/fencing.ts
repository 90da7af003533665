import { randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { enqueueEffect, outboxJob } from '../src/outbox/enqueue.ts';
import type { ChatMessage } from '../src/session/chat-message.ts';
import { createTranscriptStore } from '../src/session/transcript-store.ts';
import { createFence, type Fence, withFence } from '../src/store/fence.ts';
import { addJobOn, jobAdded } from '../src/store/fenced-writer.ts';
import { createKeys } from '../src/store/keys.ts';
import { closeQueues, createQueues } from '../src/store/queues.ts';
import { deletePrefix } from './kit.ts';
import type { BenchRow } from './row.ts';

const EFFECTS = 1000;
const ROUNDS = 6;
const OUTPUT = 'x'.repeat(2000);

/**
 * Issue 46: what fencing costs per effect. The same tool-result step and the same outbox job are
 * written with the turn's fence (WATCH of the epoch, the epoch compare and the same MULTI in one
 * flush, on a fenced connection) and without (the same MULTI on the shared connection; `Queue.add`), alternating in
 * rounds in one process so load on the machine falls on both alike, one write at a time as a turn
 * makes them. Real Redis on loopback.
 */
export async function benchFencing(
  redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
): Promise<BenchRow[]> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const keys = createKeys(`bench-${randomUUID().slice(0, 8)}`);
  const queues = createQueues(redis, keys.queuePrefix);
  const ctx = { redis, keys, queues, now: () => Date.now() };
  try {
    await redis.set(keys.turnEpoch('T1'), '1');
    const fence = createFence(ctx, keys.turnEpoch('T1'), '1');
    const step = await alternate((r, on) => toolSteps(ctx, on ? fence : undefined, `s-${on}-${r}`));
    const job = await alternate((r, on) => effects(ctx, on ? fence : undefined, `e-${on}-${r}`));
    // The fenced add runs BullMQ's add script inside a MULTI (one WATCH over the compare and the
    // add): against the same add in an unfenced MULTI, what the compare itself costs.
    const inMulti = await alternate((r, on) =>
      on ? effects(ctx, fence, `f-${r}`) : effectsInMulti(ctx, `m-${r}`),
    );
    const load = `load average ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores`;
    const row = (name: string, m: Measured, what: string, baseline = 'unfenced'): BenchRow[] => [
      {
        name: `fencing: ${name}`,
        value: m.on.wall,
        unit: 'ms each',
        baseline: m.off.wall,
        ratio: m.on.wall / m.off.wall,
        note: `${what}; ${baseline} as baseline, ${ROUNDS}×${EFFECTS} each, one at a time; ${load}`,
      },
      {
        name: `fencing: ${name}, cost of the fence`,
        value: m.on.wall - m.off.wall,
        unit: 'ms each',
        note: m.on.wall - m.off.wall < 0.1 ? 'goal < 0.1 ms: met' : 'goal < 0.1 ms: MISSED',
      },
      {
        name: `fencing: ${name}, this process's CPU`,
        value: m.on.cpu,
        unit: 'ms each',
        baseline: m.off.cpu,
        ratio: m.on.cpu / m.off.cpu,
        note: 'user + system time of the writing process, per effect (the fence: its difference)',
      },
    ];
    // What one round trip to Redis costs now, for scale: the fence adds none (one flush either way).
    const pingStarted = performance.now();
    for (let i = 0; i < EFFECTS; i++) await redis.ping();
    const ping = (performance.now() - pingStarted) / EFFECTS;
    return [
      ...row('tool result recorded', step, 'transcript MULTI (result, message, step)'),
      ...row('outbox effect queued', job, "BullMQ's add script"),
      ...row(
        'outbox effect queued (MULTI both)',
        inMulti,
        "BullMQ's add script",
        'the same add in an unfenced MULTI',
      ),
      { name: 'fencing: one PING round trip, same run', value: ping, unit: 'ms each', note: 'for scale' },
    ];
  } finally {
    await deletePrefix(redis, keys.prefix);
    await closeQueues(queues);
    redis.disconnect();
  }
}

type BenchCtx = Parameters<typeof createFence>[0] & { now: () => number };

interface Cost {
  /** Wall-clock ms per write. */
  wall: number;
  /** ms of this process's CPU (user + system) per write. */
  cpu: number;
}
type Measured = { on: Cost; off: Cost };

/** Runs `run` fenced and not in alternating rounds; answers the cost per write of each. */
async function alternate(run: (round: number, on: boolean) => Promise<number>): Promise<Measured> {
  const on = { wall: 0, cpu: 0 };
  const off = { wall: 0, cpu: 0 };
  const measure = async (into: Cost, r: number, fenced: boolean) => {
    const cpu = process.cpuUsage();
    into.wall += await run(r, fenced);
    const used = process.cpuUsage(cpu);
    into.cpu += (used.user + used.system) / 1000;
  };
  for (let r = 0; r < ROUNDS; r++) {
    // Which goes first alternates, so warming up favours neither.
    if (r % 2 === 0) await measure(off, r, false);
    await measure(on, r, true);
    if (r % 2 !== 0) await measure(off, r, false);
  }
  const per = (c: Cost): Cost => ({ wall: c.wall / (ROUNDS * EFFECTS), cpu: c.cpu / (ROUNDS * EFFECTS) });
  return { on: per(on), off: per(off) };
}

async function toolSteps(ctx: BenchCtx, fence: Fence | undefined, sessionId: string): Promise<number> {
  const run = async () => {
    // Made in the turn's async context, the store writes under its fence (as in `runTurn`).
    const store = createTranscriptStore({ redis: ctx.redis, keys: ctx.keys });
    const started = performance.now();
    for (let i = 0; i < EFFECTS; i++) {
      const key = `${i}:c${i}`;
      const message: ChatMessage = { role: 'tool', tool_call_id: `c${i}`, content: OUTPUT };
      await store.recordToolResult(sessionId, key, { ok: true, content: OUTPUT }, message);
    }
    return performance.now() - started;
  };
  return fence ? withFence(fence, run) : run();
}

async function effects(ctx: BenchCtx, fence: Fence | undefined, prefix: string): Promise<number> {
  const one = (i: number) =>
    enqueueEffect(ctx, {
      key: `${prefix}-${i}`,
      ticketId: 'T1',
      effect: { op: 'local.reply', chatId: 'bench', messageId: 'm1', text: OUTPUT.slice(0, 300) },
    });
  const started = performance.now();
  for (let i = 0; i < EFFECTS; i++) await (fence ? withFence(fence, () => one(i)) : one(i));
  return performance.now() - started;
}

/** The outbox's add as the fenced path makes it, in a MULTI, but on the shared connection and unfenced. */
async function effectsInMulti(ctx: BenchCtx, prefix: string): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < EFFECTS; i++) {
    const job = outboxJob(ctx, {
      key: `${prefix}-${i}`,
      ticketId: 'T1',
      effect: { op: 'local.reply', chatId: 'bench', messageId: 'm1', text: OUTPUT.slice(0, 300) },
    });
    const m = ctx.redis.multi();
    await addJobOn(m, ctx.queues.outbox, job);
    const [added] = (await m.exec()) ?? [];
    jobAdded(added);
  }
  return performance.now() - started;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${JSON.stringify(await benchFencing(), null, 2)}\n`);
  process.exit(0);
}
