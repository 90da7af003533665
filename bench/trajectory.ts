import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { ChatMessage } from '../src/session/chat-message.ts';
import { createTranscriptStore } from '../src/session/transcript-store.ts';
import { createKeys } from '../src/store/keys.ts';
import { deletePrefix } from './kit.ts';
import type { BenchRow } from './row.ts';

const STEPS = 2000;
const ROUNDS = 6;
const OUTPUT = 'x'.repeat(2000);

/**
 * Issue 17: what recording a step for the trajectory costs. The same tool-result step is stored
 * with its step record (the product) and without (the same-run baseline), alternating in rounds
 * so load on the machine falls on both alike; the difference per step is the overhead (goal
 * < 0.2 ms). Both run against real Redis: the record rides in the step's own MULTI.
 */
export async function benchTrajectory(
  redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
): Promise<BenchRow[]> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const keys = createKeys(`bench-${randomUUID().slice(0, 8)}`);
  const store = createTranscriptStore({ redis, keys });
  try {
    let withMs = 0;
    let withoutMs = 0;
    for (let r = 0; r < ROUNDS; r++) {
      // Which goes first alternates, so warming up favours neither.
      const plainFirst = r % 2 === 0;
      if (plainFirst) withoutMs += await steps(store, `plain-${r}`, false);
      withMs += await steps(store, `recorded-${r}`, true);
      if (!plainFirst) withoutMs += await steps(store, `plain-${r}`, false);
    }
    const per = (ms: number) => ms / (ROUNDS * STEPS);
    const overhead = per(withMs) - per(withoutMs);
    return [
      {
        name: 'trajectory: step stored with its record',
        value: per(withMs),
        unit: 'ms/step',
        baseline: per(withoutMs),
        ratio: per(withMs) / per(withoutMs),
        note: `without the record as baseline, ${ROUNDS}×${STEPS} steps each`,
      },
      {
        name: 'trajectory: overhead of recording a step',
        value: overhead,
        unit: 'ms/step',
        note: overhead < 0.2 ? 'goal < 0.2 ms: met' : 'goal < 0.2 ms: MISSED',
      },
    ];
  } finally {
    await deletePrefix(redis, keys.prefix);
    redis.disconnect();
  }
}

async function steps(
  store: ReturnType<typeof createTranscriptStore>,
  sessionId: string,
  record: boolean,
): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < STEPS; i++) {
    const key = `${i}:c${i}`;
    const message: ChatMessage = { role: 'tool', tool_call_id: `c${i}`, content: OUTPUT };
    const step = record ? ({ kind: 'tool', at: Date.now(), index: i, ms: 3, key } as const) : undefined;
    await store.recordToolResult(sessionId, key, { ok: true, content: OUTPUT }, message, step);
  }
  return performance.now() - started;
}
