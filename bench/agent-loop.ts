import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { createModelClient, type ModelClient } from '../src/session/model-client.ts';
import { runTurn } from '../src/session/run-turn.ts';
import { defineTool, toolOk } from '../src/session/tool.ts';
import { proceed } from '../src/session/turn-outcome.ts';
import { createKeys, type Keys } from '../src/store/keys.ts';
import { type RecordedRequest, startFakeLlm, text, toolCalls } from '../test/kit/fake-llm.ts';
import { deletePrefix } from './kit.ts';
import type { BenchRow } from './row.ts';
import { quantile } from './stats.ts';

const STEPS_PER_TURN = 10;
const TURNS = 40;
const WARMUP_TURNS = 5;

/**
 * Issue 4 `bench/`: the overhead of one agent-loop step excluding the model (prompt hook, gates,
 * transcript writes, tool dispatch, the openai client), against a same-run baseline of the bare
 * HTTP round trip to the same fake model, which answers at once.
 */
export async function benchAgentLoop(
  redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
): Promise<BenchRow[]> {
  const llm = await startFakeLlm({ handler: answerSteps });
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const keys = createKeys(`bench-${randomUUID().slice(0, 8)}`);
  try {
    const model = createModelClient({
      baseURL: llm.baseURL,
      apiKey: 'bench',
      model: 'deepseek-flash',
      contract: { provider: 'deepseek', thinking: 'enabled' },
    });
    const steps: number[] = [];
    const bare: number[] = [];
    // Turns and bare round trips alternate, so load from elsewhere on the machine hits both alike.
    for (let t = 0; t < WARMUP_TURNS + TURNS; t++) {
      const s = await turnSteps(model, redis, keys, `s${t}`);
      const b = await bareRoundTrips(llm.baseURL, llm.requests.at(-2)?.body ?? {}, STEPS_PER_TURN);
      if (t < WARMUP_TURNS) continue;
      steps.push(...s);
      bare.push(...b);
    }
    return rows(steps, bare);
  } finally {
    await deletePrefix(redis, keys.prefix);
    redis.disconnect();
    await llm.close();
  }
}

/** The fake model: a tool call per step until the turn has had its steps, then a plain answer. */
function answerSteps(req: RecordedRequest) {
  const answered = req.messages.filter((m) => m.role === 'assistant').length;
  return answered % STEPS_PER_TURN === STEPS_PER_TURN - 1
    ? text('done')
    : toolCalls(['note', { text: 'step' }]);
}

/** Durations of one turn's whole steps (model request + its tool call), from one gate call to the next. */
async function turnSteps(model: ModelClient, redis: Redis, keys: Keys, sessionId: string): Promise<number[]> {
  const durations: number[] = [];
  let last: number | undefined;
  const mark = () => {
    const now = performance.now();
    if (last !== undefined) durations.push(now - last);
    last = now;
    return proceed;
  };
  await runTurn({
    sessionId,
    turnId: 'turn',
    input: [{ role: 'user', content: '<card id="c1" source="feishu" kind="message">bench</card>' }],
    model,
    tools: [note],
    hooks: {
      systemPrompt: async () => ({ text: 'You are a bench session.', revision: 1 }),
      beforeModelRequest: mark,
    },
    redis,
    keys,
  });
  return durations;
}

const note = defineTool({
  name: 'note',
  description: 'Write a note',
  parameters: z.object({ text: z.string() }),
  run: () => toolOk('noted'),
});

/** The same request body posted with plain `fetch`: what a step costs with no loop around it. */
async function bareRoundTrips(baseURL: string, body: Record<string, unknown>, n: number): Promise<number[]> {
  const payload = JSON.stringify(body);
  const post = () =>
    fetch(`${baseURL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer bench' },
      body: payload,
    }).then((r) => r.json());
  await post();
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await post();
    out.push(performance.now() - start);
  }
  return out;
}

function rows(steps: number[], bare: number[]): BenchRow[] {
  const round = (x: number) => Math.round(x * 1000) / 1000;
  const [s50, s99, b50, b99] = [
    quantile(steps, 0.5),
    quantile(steps, 0.99),
    quantile(bare, 0.5),
    quantile(bare, 0.99),
  ];
  const n = `${steps.length} steps, fake model answering at once`;
  return [
    {
      name: 'agent-loop step p50',
      value: round(s50),
      unit: 'ms',
      baseline: round(b50),
      ratio: round(s50 / b50),
      note: n,
    },
    {
      name: 'agent-loop step p99',
      value: round(s99),
      unit: 'ms',
      baseline: round(b99),
      ratio: round(s99 / b99),
      note: n,
    },
    {
      name: 'agent-loop overhead per step p50 (excl. model)',
      value: round(Math.max(0, s50 - b50)),
      unit: 'ms',
      note: 'step minus bare HTTP round trip: prompt hook, gates, 2 transcript writes, tool dispatch, openai client',
    },
  ];
}

// `npx tsx bench/agent-loop.ts` runs this bench alone.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${JSON.stringify(await benchAgentLoop(), null, 2)}\n`);
}
