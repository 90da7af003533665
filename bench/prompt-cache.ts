import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { contextPrompts } from '../src/session/context/context-prompts.ts';
import { createModelClient } from '../src/session/model-client.ts';
import { runTurn } from '../src/session/run-turn.ts';
import { defineTool, toolOk } from '../src/session/tool.ts';
import { createKeys } from '../src/store/keys.ts';
import { type FakeReply, type RecordedRequest, startFakeLlm, text, toolCalls } from '../test/kit/fake-llm.ts';
import { deletePrefix } from './kit.ts';
import type { BenchRow } from './row.ts';

const STEPS = 40;
/** The stress case of the issue (~2 MB of tool output) and an ordinary one (source files of a few kB). */
const LARGE = 50_000;
const SMALL = 4_000;
const WINDOW = 64_000;

/**
 * Issue 12 "prompt-cache economy": prompt tokens sent per step and the share the provider served
 * from its prefix cache over a 40-step executor turn that reads a file at every step, thinking on,
 * against the DeepSeek fake (which counts cache hits as the prefix shared with the session's
 * previous request). The product runs in a 64k window (compaction on); the same-run baseline
 * resends the whole transcript every step (a window large enough never to compact). Two turns:
 * 50 kB reads (~2 MB of tool output: tokens per step must stay flat) and 4 kB reads (an ordinary
 * turn: ≥ 90 % of prompt tokens from cache between compactions).
 */
export async function benchPromptCache(
  redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
): Promise<BenchRow[]> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const keys = createKeys(`bench-${randomUUID().slice(0, 8)}`);
  try {
    const run = async (name: string, chars: number) => ({
      product: stats(await turn(redis, keys, `${name}-compacting`, WINDOW, chars)),
      baseline: stats(await turn(redis, keys, `${name}-baseline`, 100_000_000, chars)),
    });
    return rows(await run('large', LARGE), await run('small', SMALL));
  } finally {
    await deletePrefix(redis, keys.prefix);
    redis.disconnect();
  }
}

/** One 40-step turn; the executor's requests (summary calls apart) with the usage the fake answered. */
async function turn(
  redis: Redis,
  keys: ReturnType<typeof createKeys>,
  sessionId: string,
  window: number,
  fileChars: number,
) {
  const llm = await startFakeLlm({ handler: reader });
  try {
    const model = createModelClient({
      baseURL: llm.baseURL,
      apiKey: 'bench',
      model: 'deepseek-flash',
      contract: { provider: 'deepseek', thinking: 'enabled', reasoningEffort: 'high' },
    });
    const outcome = await runTurn({
      sessionId,
      turnId: 'turn',
      input: [{ role: 'user', content: '<card id="c1" source="feishu" kind="message">read it all</card>' }],
      model,
      tools: [readFile(fileChars)],
      hooks: { systemPrompt: async () => ({ text: 'You are a bench executor.', revision: 1 }) },
      redis,
      keys,
      contextTokens: window,
      limits: { maxModelRequests: 2 * STEPS, maxTokens: 100_000_000 },
    });
    if (outcome.kind !== 'ended') throw new Error(`bench turn ${sessionId} ended ${outcome.kind}`);
    return llm.requests.filter((r) => !isSummary(r));
  } finally {
    await llm.close();
  }
}

const isSummary = (req: RecordedRequest) => req.system === contextPrompts.summarise;

/** A file per step of about `chars` characters, its path at both ends. */
const readFile = (chars: number) =>
  defineTool({
    name: 'read_file',
    description: 'Read a file',
    parameters: z.object({ path: z.string() }),
    run: ({ path }) => toolOk(`BEGIN ${path}\n${'lorem ipsum '.repeat(chars / 12)}\nEND ${path}`),
  });

/** Reads `f1`…`f40`, one per step (counted from the tool results it was sent), then ends; summarises when asked. */
function reader(req: RecordedRequest): FakeReply {
  if (isSummary(req)) return text('Progress: read the files so far; nothing to change.');
  const done = Math.max(
    0,
    ...[...JSON.stringify(req.messages).matchAll(/END f(\d+)/g)].map((m) => Number(m[1])),
  );
  return done < STEPS ? toolCalls(['read_file', { path: `f${done + 1}` }]) : text('all read');
}

interface TurnStats {
  steps: number;
  meanPrompt: number;
  firstPrompt: number;
  lastPrompt: number;
  share: number;
  /** Share over requests whose whole previous prompt was still their prefix (no compaction since). */
  betweenShare: number;
  compactions: number;
}

function stats(requests: RecordedRequest[]): TurnStats {
  const prompt = requests.map((r) => Number(r.usage?.prompt_tokens));
  const hit = requests.map((r) => Number(r.usage?.prompt_cache_hit_tokens));
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  // A request after a compaction hits less than its predecessor's prompt: the prefix was rewritten.
  const between = requests.map((_, i) => i > 0 && (hit[i] ?? 0) >= (prompt[i - 1] ?? 0) - 1);
  const pick = (xs: number[]) => xs.filter((_, i) => between[i]);
  return {
    steps: requests.length,
    meanPrompt: sum(prompt) / prompt.length,
    firstPrompt: prompt[1] ?? 0,
    lastPrompt: prompt.at(-1) ?? 0,
    share: sum(hit) / sum(prompt),
    betweenShare: sum(pick(hit)) / Math.max(1, sum(pick(prompt))),
    compactions: between.slice(1).filter((b) => !b).length,
  };
}

function rows(large: { product: TurnStats; baseline: TurnStats }, small: typeof large): BenchRow[] {
  const r = (x: number) => Math.round(x * 1000) / 1000;
  const growth = (t: TurnStats) => t.lastPrompt / t.firstPrompt;
  const turnNote = (t: TurnStats, kb: number) =>
    `${STEPS} reads of ${kb} kB, thinking on, ${WINDOW / 1000}k window: ${t.compactions} compactions; baseline resends everything`;
  const share = (
    name: string,
    t: { product: TurnStats; baseline: TurnStats },
    pick: 'share' | 'betweenShare',
    note: string,
  ) => ({
    name,
    value: r(100 * t.product[pick]),
    unit: '%',
    baseline: r(100 * t.baseline[pick]),
    ratio: r(t.product[pick] / t.baseline[pick]),
    note,
  });
  return [
    {
      name: 'prompt tokens per step (mean), 50 kB reads',
      value: Math.round(large.product.meanPrompt),
      unit: 'tokens',
      baseline: Math.round(large.baseline.meanPrompt),
      ratio: r(large.product.meanPrompt / large.baseline.meanPrompt),
      note: turnNote(large.product, LARGE / 1000),
    },
    {
      name: 'prompt tokens, last step ÷ second step, 50 kB reads',
      value: r(growth(large.product)),
      unit: '×',
      baseline: r(growth(large.baseline)),
      ratio: r(growth(large.product) / growth(large.baseline)),
      note: 'flat is ≈ 1: tokens per step do not grow with the turn',
    },
    share('cache-hit share, whole turn, 50 kB reads', large, 'share', 'compaction steps included'),
    share(
      'cache-hit share between compactions, 4 kB reads',
      small,
      'betweenShare',
      `goal ≥ 90 %; ${turnNote(small.product, SMALL / 1000)}`,
    ),
    share('cache-hit share, whole turn, 4 kB reads', small, 'share', 'compaction steps included'),
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await benchPromptCache()) process.stdout.write(`${JSON.stringify(row)}\n`);
  process.exit(0);
}
