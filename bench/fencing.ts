import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { enqueueEffect } from '../src/outbox/enqueue.ts';
import type { ChatMessage } from '../src/session/chat-message.ts';
import { createTranscriptStore } from '../src/session/transcript-store.ts';
import { createFence, type Fence, withFence } from '../src/store/fence.ts';
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
    const row = (name: string, m: { on: number; off: number }, what: string): BenchRow[] => [
      {
        name: `fencing: ${name}`,
        value: m.on,
        unit: 'ms each',
        baseline: m.off,
        ratio: m.on / m.off,
        note: `${what}; unfenced as baseline, ${ROUNDS}×${EFFECTS} each, one at a time`,
      },
      {
        name: `fencing: ${name}, cost of the fence`,
        value: m.on - m.off,
        unit: 'ms each',
        note: m.on - m.off < 0.1 ? 'goal < 0.1 ms: met' : 'goal < 0.1 ms: MISSED',
      },
    ];
    // What one round trip to Redis costs now, for scale: the fence adds none (one flush either way).
    const pingStarted = performance.now();
    for (let i = 0; i < EFFECTS; i++) await redis.ping();
    const ping = (performance.now() - pingStarted) / EFFECTS;
    return [
      ...row('tool result recorded', step, 'transcript MULTI (result, message, step)'),
      ...row('outbox effect queued', job, "BullMQ's add script"),
      { name: 'fencing: one PING round trip, same run', value: ping, unit: 'ms each', note: 'for scale' },
    ];
  } finally {
    await deletePrefix(redis, keys.prefix);
    await closeQueues(queues);
    redis.disconnect();
  }
}

type BenchCtx = Parameters<typeof createFence>[0] & { now: () => number };

/** Runs `run` fenced and not in alternating rounds; answers ms per write of each. */
async function alternate(
  run: (round: number, on: boolean) => Promise<number>,
): Promise<{ on: number; off: number }> {
  let on = 0;
  let off = 0;
  for (let r = 0; r < ROUNDS; r++) {
    // Which goes first alternates, so warming up favours neither.
    if (r % 2 === 0) off += await run(r, false);
    on += await run(r, true);
    if (r % 2 !== 0) off += await run(r, false);
  }
  return { on: on / (ROUNDS * EFFECTS), off: off / (ROUNDS * EFFECTS) };
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

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${JSON.stringify(await benchFencing(), null, 2)}\n`);
  process.exit(0);
}
