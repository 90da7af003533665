import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { ChatMessage } from '../src/session/chat-message.ts';
import { createTranscriptStore } from '../src/session/transcript-store.ts';
import { newTurnState } from '../src/session/turn-state.ts';
import { usageCounts } from '../src/stats/daily-counts.ts';
import { createKeys } from '../src/store/keys.ts';
import { deletePrefix } from './kit.ts';
import type { BenchRow } from './row.ts';

const STEPS = 2000;
const ROUNDS = 6;
const OUTPUT = 'x'.repeat(2000);

type Store = ReturnType<typeof createTranscriptStore>;

/**
 * Issue 17: what recording a step for the trajectory costs. The same tool-result step is stored
 * with its step record (the product) and without (the same-run baseline), alternating in rounds
 * so load on the machine falls on both alike; the difference per step is the overhead (goal
 * < 0.2 ms). Both run against real Redis: the record rides in the step's own MULTI. A model
 * step also adds to its day's counters for the charts (one script in the same MULTI): measured
 * the same way, with its usage stored either way.
 */
export async function benchTrajectory(
  redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
): Promise<BenchRow[]> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const keys = createKeys(`bench-${randomUUID().slice(0, 8)}`);
  const store = createTranscriptStore({ redis, keys });
  try {
    const tool = await alternate((r, on) => toolSteps(store, `tool-${on}-${r}`, on));
    const model = await alternate((r, on) => modelSteps(store, `model-${on}-${r}`, on));
    const overhead = tool.on - tool.off;
    const modelOverhead = model.on - model.off;
    const goal = (ms: number) => (ms < 0.2 ? 'goal < 0.2 ms: met' : 'goal < 0.2 ms: MISSED');
    return [
      {
        name: 'trajectory: step stored with its record',
        value: tool.on,
        unit: 'ms/step',
        baseline: tool.off,
        ratio: tool.on / tool.off,
        note: `without the record as baseline, ${ROUNDS}×${STEPS} steps each`,
      },
      {
        name: 'trajectory: overhead of recording a step',
        value: overhead,
        unit: 'ms/step',
        note: goal(overhead),
      },
      {
        name: 'trajectory: model step with its record and day counters',
        value: model.on,
        unit: 'ms/step',
        baseline: model.off,
        ratio: model.on / model.off,
        note: `with its usage, without record and counters as baseline; overhead ${modelOverhead.toFixed(3)} ms, ${goal(modelOverhead)}`,
      },
    ];
  } finally {
    await deletePrefix(redis, keys.prefix);
    redis.disconnect();
  }
}

/** Runs `run` with the recording on and off in alternating rounds; answers ms per step of each. */
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
  return { on: on / (ROUNDS * STEPS), off: off / (ROUNDS * STEPS) };
}

async function toolSteps(store: Store, sessionId: string, record: boolean): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < STEPS; i++) {
    const key = `${i}:c${i}`;
    const message: ChatMessage = { role: 'tool', tool_call_id: `c${i}`, content: OUTPUT };
    const step = record ? ({ kind: 'tool', at: Date.now(), index: i, ms: 3, key } as const) : undefined;
    await store.recordToolResult(sessionId, key, { ok: true, content: OUTPUT }, message, step);
  }
  return performance.now() - started;
}

/** A model answer's step as `modelStep` stores it: with its usage; recorded, also its record and the day's counters. */
async function modelSteps(store: Store, sessionId: string, record: boolean): Promise<number> {
  const usage = { promptTokens: 5000, completionTokens: 40, cacheHitTokens: 4800 };
  const turn = newTurnState('bench', Date.now());
  const started = performance.now();
  for (let i = 0; i < STEPS; i++) {
    const message: ChatMessage = { role: 'assistant', content: OUTPUT.slice(0, 400) };
    const at = Date.now();
    await store.appendStep(sessionId, [message], turn, {
      usage,
      ...(record
        ? {
            step: { kind: 'model', at, index: i, ms: 800, model: 'deepseek-flash', usage },
            daily: usageCounts('executor', at, usage),
          }
        : {}),
    });
  }
  return performance.now() - started;
}
