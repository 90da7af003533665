import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeAnthropic } from '../../kit/fake-anthropic.ts';
import { toolCalls } from '../../kit/fake-llm.ts';
import { roleOf } from '../../kit/scripted-model.ts';
import { botMessages, localMessage, openTicketIn, send, ticketOpenedBy } from '../routing/helpers.ts';
import { executorFlow, startWorld, type World } from './harness.ts';

/**
 * R-H1: the delivery flow of `delivery-flow.test.ts` with `LLM_PROVIDER=anthropic`, against a
 * fake that refuses whatever Anthropic's Messages API refuses (roles, tool_use/tool_result
 * pairing, cache breakpoints, tool names and schemas, headers, max_tokens).
 */
describe('the executor flow on Anthropic’s Messages API (issue 12, R-H1)', () => {
  let w: World;
  let fake: FakeAnthropic;
  beforeEach(async () => {
    w = await startWorld({}, { model: 'anthropic' });
    fake = w.llm as FakeAnthropic;
  });
  afterEach(async () => {
    await w.close();
  });

  /** The delivery flow, run by each test for itself (issue 20: no test reads another's requests). */
  async function deliver() {
    const flow = executorFlow(w.llm, [
      (_r, card) =>
        toolCalls(['reply', { to: card, text: `Fixing the login redirect in acme/web (${card}).` }]),
      () => toolCalls(['read_file', { path: 'src/login.ts' }], ['list_files', {}]),
      () =>
        toolCalls([
          'write_file',
          { path: 'src/login.ts', content: 'export const next = (u: string) => u || "/";\n' },
        ]),
      () => toolCalls(['commit_and_push', { message: 'Fix the login redirect' }]),
      () => toolCalls(['open_pr', { title: 'Fix the login redirect', body: 'Falls back to /.' }]),
      () => toolCalls(['report', { status: 'working', summary: 'Draft PR open; verifying next.' }]),
    ]);
    // Issue 18: a ticket open in the chat sends the request through the main session, whose
    // routing this test is about (with none, code would open it).
    await openTicketIn(w.app.ctx);
    const card = await send(w.app.ctx, localMessage('Please fix the login redirect loop'));
    await flow.done();
    return { flow, card, ticket: await ticketOpenedBy(w.app.ctx, card) };
  }

  it('R-H1: routing, acknowledgement, file tools, commit, draft PR and report all run with nothing refused', async () => {
    const { flow, card, ticket } = await deliver();
    expect(fake.refusals).toEqual([]);
    const r = flow.results.map((x) => x.join('\n'));
    expect(r[1]).toContain('export const next');
    expect(r[3]).toMatch(new RegExp(`committed [0-9a-f]{12} and pushed sy/${ticket}-`));
    expect(r[4]).toContain('opened draft PR acme/web#1');
    expect(r[5]).toContain('recorded working');
    expect((await botMessages(w.app.ctx)).filter((m) => m.text.includes(card))).toHaveLength(1);
    expect(w.gh.pulls[0]).toMatchObject({ repo: 'acme/web', draft: true });
  });

  it('R-H1: both sessions spoke the Messages API with the configured model, max_tokens and the key', async () => {
    await deliver();
    expect(fake.requests.some((q) => roleOf(q) === 'main')).toBe(true);
    expect(fake.raw.every((q) => q.body.model === 'claude-haiku-4-5' && q.body.max_tokens === 32_768)).toBe(
      true,
    );
    // The parallel read_file + list_files results went back as one user message of two tool_results.
    const merged = fake.raw.some((q) =>
      (q.body.messages as { role: string; content: { type: string }[] }[]).some(
        (m) => m.role === 'user' && m.content.filter((b) => b.type === 'tool_result').length === 2,
      ),
    );
    expect(merged).toBe(true);
  });

  it('R-H1: thinking per session kind: executors think (budget form on Claude 4.5) and send their signed thinking back; routing does not', async () => {
    await deliver();
    const executor = fake.raw.filter(
      (_, i) => fake.requests[i] && roleOf(fake.requests[i] as never) === 'executor',
    );
    const main = fake.raw.filter((_, i) => fake.requests[i] && roleOf(fake.requests[i] as never) === 'main');
    // Issue 48 item 7: the acknowledging request thinks the least the API takes; the rest in full.
    expect(executor.map((q) => JSON.stringify(q.body.thinking))).toEqual([
      '{"type":"enabled","budget_tokens":1024}',
      ...executor.slice(1).map(() => '{"type":"enabled","budget_tokens":16384}'),
    ]);
    expect(main.every((q) => q.body.thinking === undefined)).toBe(true);
    const assistantTurns = executor.flatMap((q) =>
      (q.body.messages as { role: string; content: { type: string }[] }[]).filter(
        (m) => m.role === 'assistant',
      ),
    );
    expect(assistantTurns.length).toBeGreaterThan(0);
    expect(assistantTurns.every((m) => m.content[0]?.type === 'thinking')).toBe(true);
  });

  it('R-H2: later executor steps read the stable prefix and the conversation so far from the prompt cache', async () => {
    await deliver();
    const executor = fake.requests
      .map((q, i) => ({ q, u: fake.usages[i] }))
      .filter(({ q }) => roleOf(q) === 'executor');
    const later = executor.slice(1).map(({ u }) => u?.cache_read_input_tokens ?? 0);
    expect(later.length).toBeGreaterThan(3);
    expect(later.every((n) => n > 0)).toBe(true);
    const last = executor.at(-1)?.u;
    // Most of the last step's prompt came from the cache.
    expect(
      (last?.cache_read_input_tokens ?? 0) /
        ((last?.cache_read_input_tokens ?? 0) +
          (last?.input_tokens ?? 1) +
          (last?.cache_creation_input_tokens ?? 0)),
    ).toBeGreaterThan(0.5);
  });
});
