import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicClient } from '../../../src/session/anthropic-client.ts';
import type { AnthropicThinking } from '../../../src/session/anthropic-thinking.ts';
import { requestWithRetry } from '../../../src/session/request-with-retry.ts';
import { runTurn } from '../../../src/session/run-turn.ts';
import { type FakeAnthropic, startFakeAnthropic } from '../../kit/fake-anthropic.ts';
import { failure, text, toolCalls } from '../../kit/fake-llm.ts';
import { testRedis } from '../../kit/redis.ts';
import { noteTool } from './harness.ts';

const { redis, keys: freshKeys } = testRedis();
// A fake per test (issue 20): its queued replies, recorded requests and refusals are the test's
// own — the 404/401 test's refusals would otherwise fail a later "nothing refused" check.
let fake: FakeAnthropic;
beforeEach(async () => {
  fake = await startFakeAnthropic({ minCacheTokens: 50 });
});
afterEach(() => fake?.close());

// Long enough to pass the cache minimum, stable between requests.
const SYSTEM = `You are a test session. ${'Keep notes short. '.repeat(40)}`;

const client = (
  stream: boolean,
  model = 'claude-haiku-4-5',
  apiKey = 'test-key',
  thinking?: AnthropicThinking,
) =>
  createAnthropicClient({
    baseURL: fake.baseURL,
    apiKey,
    model,
    maxTokens: 4096,
    stream,
    ...(thinking ? { thinking } : {}),
  });

function turn(
  stream: boolean,
  effects: { text: string; key: string }[],
  sessionId: string,
  model = client(stream),
) {
  return runTurn({
    sessionId,
    turnId: 'turn-1',
    input: [{ role: 'user', content: '<card id="c1" source="feishu" kind="message">note two things</card>' }],
    model,
    tools: [noteTool(effects)],
    hooks: { systemPrompt: async () => ({ text: SYSTEM, revision: 1 }) },
    redis,
    keys: freshKeys(),
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
  });
}

describe('Anthropic Messages API client (issue 12, R-H1)', () => {
  for (const stream of [false, true]) {
    it(`R-H1: parallel tool calls, their results and a final answer go round trip ${stream ? 'streamed' : 'not streamed'} with nothing refused`, async () => {
      const effects: { text: string; key: string }[] = [];
      const from = fake.raw.length;
      fake.push(
        toolCalls(['note', { text: 'one' }], ['note', { text: 'two' }]),
        toolCalls(['note', { text: 'three' }]),
        text('All noted.'),
      );

      const outcome = await turn(stream, effects, `s-${stream}`);

      expect(fake.refusals).toEqual([]);
      expect(outcome).toMatchObject({ kind: 'ended', text: 'All noted.' });
      expect(effects.map((e) => e.text)).toEqual(['one', 'two', 'three']);
      const sent = fake.raw.slice(from);
      expect(sent.every((r) => r.body.max_tokens === 4096 && r.body.stream === (stream || undefined))).toBe(
        true,
      );
      expect(sent[0]?.headers['anthropic-version']).toBeTruthy();
      // The two results of the parallel calls answer them in one user message.
      const second = sent[1]?.body.messages as { role: string; content: { type: string }[] }[];
      expect(second.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
      expect(second[2]?.content.map((b) => b.type)).toEqual(['tool_result', 'tool_result']);
    });
  }

  for (const stream of [false, true]) {
    it(`R-H1: a model that thinks by default (Claude 5, thinking not asked for): its signed thinking goes back first in the tool-use turn, ${stream ? 'streamed' : 'not streamed'}`, async () => {
      const from = fake.raw.length;
      fake.push(
        {
          type: 'message',
          reasoning: 'I should note both.',
          toolCalls: [{ name: 'note', arguments: { text: 'x' } }],
        },
        text('Noted.'),
      );
      const outcome = await turn(stream, [], `think-${stream}`, client(stream, 'claude-sonnet-5'));
      expect(fake.refusals).toEqual([]);
      expect(outcome).toMatchObject({ kind: 'ended', text: 'Noted.' });
      const second = fake.raw[from + 1]?.body as {
        thinking?: unknown;
        messages: { role: string; content: Record<string, unknown>[] }[];
      };
      expect(second.thinking).toBeUndefined();
      expect(second.messages[1]?.content[0]).toMatchObject({
        type: 'thinking',
        thinking: 'I should note both.',
      });
      expect(second.messages[1]?.content[0]?.signature).toEqual(expect.any(String));
    });
  }

  it('R-H1: thinking settings per model: adaptive (effort max) on Claude 4.6+, the budget form under max_tokens on 4.5, nothing when disabled', async () => {
    const from = fake.raw.length;
    const ask = (model: string, thinking: AnthropicThinking) =>
      requestWithRetry(
        client(false, model, 'test-key', thinking),
        { system: SYSTEM, messages: [{ role: 'user', content: 'hi' }], tools: [] },
        { attempts: 1, baseDelayMs: 1, maxDelayMs: 5, totalDelayMs: 60_000 },
      );
    fake.push(text('a'), text('b'), text('c'));
    await ask('claude-sonnet-5', { thinking: 'enabled', effort: 'max' });
    await ask('claude-haiku-4-5', { thinking: 'enabled', effort: 'high' });
    await ask('claude-haiku-4-5', { thinking: 'disabled', effort: 'high' });
    expect(fake.refusals).toEqual([]);
    const bodies = fake.raw.slice(from).map((r) => [r.body.thinking, r.body.output_config]);
    expect(bodies).toEqual([
      [{ type: 'adaptive' }, { effort: 'max' }],
      [{ type: 'enabled', budget_tokens: 2048 }, undefined],
      [undefined, undefined],
    ]);
  });

  it('R-H2: the stable prefix carries cache breakpoints (at most 4) and later steps read it from the cache', async () => {
    const from = fake.usages.length;
    const rawFrom = fake.raw.length;
    fake.push(toolCalls(['note', { text: 'a' }]), toolCalls(['note', { text: 'b' }]), text('done'));

    await turn(false, [], 's-cache');

    const body = fake.raw[rawFrom]?.body as {
      system: { cache_control?: unknown }[];
      tools: { cache_control?: unknown }[];
    };
    expect(body.system.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
    expect(body.tools.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
    const usages = fake.usages.slice(from);
    expect(usages[1]?.cache_read_input_tokens).toBeGreaterThan(0);
    // Step 3 reads everything up to step 2's sliding breakpoint: more than step 2 read.
    expect(usages[2]?.cache_read_input_tokens).toBeGreaterThan(usages[1]?.cache_read_input_tokens ?? 0);
  });

  it('R-H1: 529 overloaded and 429 are retried; the answer after them is used', async () => {
    fake.push(failure(529), failure(429, 0), text('recovered'));
    const attempt = await requestWithRetry(
      client(false),
      { system: SYSTEM, messages: [{ role: 'user', content: 'hi' }], tools: [] },
      { attempts: 4, baseDelayMs: 1, maxDelayMs: 5, totalDelayMs: 60_000 },
    );
    expect(attempt).toMatchObject({ ok: true, reply: { message: { content: 'recovered' } } });
  });

  it('R-H1: a retired model (404 not_found_error) and a bad key (401) are not retried, and the reason names them', async () => {
    const before = fake.raw.length;
    const policy = { attempts: 4, baseDelayMs: 1, maxDelayMs: 5, totalDelayMs: 60_000 };
    const req = { system: SYSTEM, messages: [{ role: 'user' as const, content: 'hi' }], tools: [] };
    const retired = await requestWithRetry(client(false, 'claude-2.1'), req, policy);
    expect(retired).toMatchObject({ ok: false, attempts: 1 });
    expect(!retired.ok && retired.reason).toMatch(/404.*model: claude-2\.1/);
    const badKey = await requestWithRetry(client(false, 'claude-haiku-4-5', 'wrong'), req, policy);
    expect(!badKey.ok && badKey.reason).toMatch(/401.*invalid x-api-key/);
    expect(fake.raw.length - before).toBe(1); // the bad key never got past the header check
  });
});
