import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../kit/app.ts';
import type { FakeAnthropic } from '../../kit/fake-anthropic.ts';
import { type RecordedRequest, text, toolCalls } from '../../kit/fake-llm.ts';
import { cardsIn, continues, inputOf, openAll, roleOf } from '../../kit/scripted-model.ts';
import { localMessage, send } from '../routing/helpers.ts';
import { type ExecStep, executorRequests, startWorld, type World } from './harness.ts';

/**
 * Issue 28, item 15: the executor's request that acknowledges new cards is answered without
 * thinking, so with DeepSeek's thinking mode the acknowledgement waits for no reasoning; the rest
 * of the turn thinks (`EXECUTOR_THINKING=enabled`, the default). The DeepSeek fake refuses what
 * DeepSeek refuses across such a switch: a tool-call answer sent back without reasoning (or with an
 * empty one) in a request with thinking on.
 */
const work: ExecStep[] = [
  (_r, card) =>
    toolCalls(
      ['reply', { to: card, text: `Looking at the login flow of acme/web for ${card}.` }],
      ['read_file', { path: 'README.md' }],
    ),
  () => toolCalls(['read_file', { path: 'src/login.ts' }]),
  () => toolCalls(['report', { status: 'working', summary: 'Read the login flow; reviewing next.' }]),
];

const answered = (rs: RecordedRequest[]) => rs.every((r) => r.usage !== undefined);

describe('the acknowledgement never waits on thinking (issue 28, R-C2, R-H1)', () => {
  let w: World;
  afterEach(async () => {
    await w.close();
  });

  it('DeepSeek: the acknowledging request has thinking disabled, every later one enabled, and no request is refused', async () => {
    w = await startWorld();
    const seen = executorRequests(w.llm, work);
    await send(w.app.ctx, localMessage('Please review the login flow of the web app'));
    await waitFor(() => seen.length >= work.length + 1, 'the executor turn', 30_000);

    expect(answered(w.llm.requests)).toBe(true);
    const [ack, ...rest] = seen;
    expect(ack?.body.thinking).toEqual({ type: 'disabled' });
    expect(ack?.body).not.toHaveProperty('reasoning_effort');
    expect(rest.length).toBeGreaterThanOrEqual(work.length);
    for (const r of rest) {
      expect(r.body.thinking).toEqual({ type: 'enabled' });
      expect(r.body.reasoning_effort).toBe('high');
    }
    // The acknowledgement's answer came without reasoning; with thinking back on it goes back with
    // the placeholder, and the answers made thinking with their own reasoning.
    const calling = (rest.at(-1)?.messages ?? []).filter((m) => m.role === 'assistant' && m.tool_calls);
    expect(calling.map((m) => m.tool_calls?.[0]?.function.name)).toEqual(['reply', 'read_file', 'report']);
    expect(calling[0]?.reasoning_content).toBe(' ');
    for (const m of calling.slice(1)) expect(m.reasoning_content).toMatch(/^Thinking about the \d+ messages/);
  }, 60_000);

  it('DeepSeek: a fresh turn with nothing to acknowledge (the host continuing after the request cap) thinks from its first request', async () => {
    w = await startWorld({ EXECUTOR_MAX_REQUESTS: '3' });
    const firsts: RecordedRequest[] = [];
    w.llm.respond((req) => {
      if (roleOf(req) === 'main') return continues(req) ? text('Routed.') : openAll(req);
      if (!continues(req)) {
        firsts.push(req);
        return firsts.length === 1
          ? toolCalls(['reply', { to: cardsIn(req)[0], text: 'On it.' }])
          : toolCalls(['report', { status: 'working', summary: 'Back at the login flow.' }]);
      }
      if (firsts.length > 1) return text('Reviewed.');
      const n = req.messages.filter((m) => m.role === 'assistant').length;
      return n % 2
        ? toolCalls(['report', { status: 'working', summary: 'Reading the code.' }])
        : toolCalls(['read_file', { path: 'README.md' }]);
    });
    await send(w.app.ctx, localMessage('Please audit the login code of acme/web'));
    await waitFor(() => firsts.length >= 2, 'the fresh turn', 30_000);

    expect(inputOf(firsts[1] as RecordedRequest)).toContain('[host]');
    expect(cardsIn(firsts[1] as RecordedRequest)).toEqual([]);
    expect(firsts.map((r) => r.body.thinking)).toEqual([{ type: 'disabled' }, { type: 'enabled' }]);
    expect(answered(w.llm.requests)).toBe(true);
  }, 60_000);

  it('Anthropic (budget thinking, claude-haiku-4-5): the acknowledging request thinks the least the API takes, 1,024 tokens, the rest of the turn its full budget (half of LLM_MAX_TOKENS) — one configuration for the loop, no request refused', async () => {
    w = await startWorld({}, { model: 'anthropic' });
    const seen = executorRequests(w.llm, work);
    await send(w.app.ctx, localMessage('Please review the login flow of the web app'));
    await waitFor(() => seen.length >= work.length + 1, 'the executor turn', 30_000);

    expect((w.llm as FakeAnthropic).refusals).toEqual([]);
    const [ack, ...rest] = seen;
    expect(ack?.body.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect(rest.length).toBeGreaterThanOrEqual(work.length);
    for (const r of rest) expect(r.body.thinking).toEqual({ type: 'enabled', budget_tokens: 16_384 });
  }, 60_000);

  it('Anthropic (adaptive thinking, claude-sonnet-5): the acknowledging request goes at low effort, the rest at the configured effort, thinking adaptive throughout', async () => {
    w = await startWorld({ LLM_MODEL: 'claude-sonnet-5' }, { model: 'anthropic' });
    const seen = executorRequests(w.llm, work);
    await send(w.app.ctx, localMessage('Please review the login flow of the web app'));
    await waitFor(() => seen.length >= work.length + 1, 'the executor turn', 30_000);

    expect((w.llm as FakeAnthropic).refusals).toEqual([]);
    const [ack, ...rest] = seen;
    expect(ack?.body.thinking).toEqual({ type: 'adaptive' });
    expect(ack?.body.output_config).toEqual({ effort: 'low' });
    for (const r of rest) {
      expect(r.body.thinking).toEqual({ type: 'adaptive' });
      expect(r.body).not.toHaveProperty('output_config');
    }
  }, 60_000);
});
