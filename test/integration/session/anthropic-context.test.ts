import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAnthropicClient } from '../../../src/session/anthropic-client.ts';
import { contextPrompts } from '../../../src/session/context/context-prompts.ts';
import { runTurn } from '../../../src/session/run-turn.ts';
import { defineTool, toolOk } from '../../../src/session/tool.ts';
import { type FakeAnthropic, startFakeAnthropic } from '../../kit/fake-anthropic.ts';
import { type FakeReply, type RecordedRequest, text, toolCalls } from '../../kit/fake-llm.ts';
import { testRedis } from '../../kit/redis.ts';

/**
 * R-H2 on Anthropic's Messages API: compaction's elided outputs and "progress so far" view go
 * out as valid Messages API turns (every tool_use still answered, roles alternating), and
 * Anthropic's own context-length 400 ("prompt is too long: N tokens > M maximum") compacts and
 * retries once, as DeepSeek's and OpenAI's do.
 */
const { redis, keys: freshKeys } = testRedis();
const fakes: FakeAnthropic[] = [];
afterAll(() => Promise.all(fakes.map((f) => f.close())));

const WINDOW = 16_000;
const read = new Set<string>();
const readFile = defineTool({
  name: 'read_file',
  description: 'Read a file',
  parameters: z.object({ path: z.string() }),
  run: ({ path }) => {
    read.add(path);
    return toolOk(`BEGIN ${path}\n${'lorem ipsum '.repeat(700)}\nEND ${path}`);
  },
});

const isSummary = (req: RecordedRequest) => req.system === contextPrompts.summarise;

function reader(reads: number) {
  return (req: RecordedRequest): FakeReply => {
    if (isSummary(req)) return text('SUMMARY: card c1; files read so far');
    const next = read.size + 1;
    return next <= reads ? toolCalls(['read_file', { path: `f${next}` }]) : text('all read');
  };
}

async function turn(reads: number, contextTokens: number) {
  const fake = await startFakeAnthropic({ contextWindow: WINDOW, handler: reader(reads) });
  fakes.push(fake);
  const outcome = await runTurn({
    sessionId: 'sess-1',
    turnId: 'turn-1',
    input: [{ role: 'user', content: '<card id="c1" source="feishu" kind="message">read them all</card>' }],
    model: createAnthropicClient({
      baseURL: fake.baseURL,
      apiKey: 'test-key',
      model: 'claude-haiku-4-5',
      maxTokens: 1024,
    }),
    tools: [readFile],
    hooks: { systemPrompt: async () => ({ text: 'You are a test session.', revision: 1 }) },
    redis,
    keys: freshKeys(),
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
    contextTokens,
    limits: { maxModelRequests: 80 },
  });
  return { fake, outcome };
}

describe('context that never overflows, on Anthropic (issue 12, R-H1, R-H2)', () => {
  beforeEach(() => read.clear());

  it('R-H2: 30 reads in a 16k window end with every compacted request accepted by the Messages API', async () => {
    const { fake, outcome } = await turn(30, WINDOW);
    expect(outcome).toMatchObject({ kind: 'ended', text: 'all read' });
    expect(fake.refusals).toEqual([]);
    expect(read.size).toBe(30);
    expect(fake.requests.some(isSummary)).toBe(true);
  });

  it('R-H2: Anthropic’s "prompt is too long" 400 compacts to the window it names and retries once', async () => {
    const { fake, outcome } = await turn(12, 100_000);
    expect(outcome).toMatchObject({ kind: 'ended', text: 'all read' });
    expect(fake.refusals.map((r) => r.message)).toEqual([
      expect.stringMatching(/^prompt is too long: \d+ tokens > 16000 maximum$/),
    ]);
  });
});
