import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../../src/web/metrics.ts';
import { failure, text, toolCalls } from '../../kit/fake-llm.ts';
import { noteTool, sessionHarness } from './harness.ts';

const h = await sessionHarness();

describe('model errors', () => {
  it('a 500 is retried with back-off and the turn goes on', async () => {
    const w = await h.world();
    w.llm.push(failure(500), failure(429, 0), text('recovered'));

    const outcome = await w.turn({ tools: [] });

    expect(outcome).toMatchObject({ kind: 'ended', text: 'recovered', usage: { modelRequests: 1 } });
    expect(w.llm.requests).toHaveLength(3);
  });

  it('a 429 waits what Retry-After says before asking again', async () => {
    const w = await h.world();
    w.llm.push(failure(429, 1), text('ok'));
    const started = Date.now();

    await w.turn({ tools: [], retry: { baseDelayMs: 1, maxDelayMs: 5000 } });

    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('a model that keeps failing ends the turn as failed with the reason', async () => {
    const w = await h.world();
    w.llm.respond(() => failure(503));

    const outcome = await w.turn({ tools: [], retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 5 } });

    expect(outcome.kind).toBe('failed');
    expect(outcome.kind === 'failed' && outcome.reason).toMatch(/503.*after 3 attempts/);
    expect(w.llm.requests).toHaveLength(3);
  });

  it('a client error (401) is not retried', async () => {
    const w = await h.world();
    w.llm.respond(() => failure(401));
    const outcome = await w.turn({ tools: [] });
    expect(outcome.kind).toBe('failed');
    expect(w.llm.requests).toHaveLength(1);
  });

  it('a tool call with malformed JSON arguments is retried and never enters the transcript', async () => {
    const w = await h.world();
    const effects: { text: string; key: string }[] = [];
    w.llm.push(
      { type: 'message', toolCalls: [{ name: 'note', arguments: '{"text": "tru' }] },
      toolCalls(['note', { text: 'whole' }]),
      text('done'),
    );

    const outcome = await w.turn({ tools: [noteTool(effects)] });

    expect(outcome.kind).toBe('ended');
    expect(effects.map((e) => e.text)).toEqual(['whole']);
    expect(w.llm.requests[1]?.messages.map((m) => m.role)).toEqual(['system', 'user']);
  });

  it('a time-out is retried like a 5xx', async () => {
    const w = await h.world({ timeoutMs: 200 });
    w.llm.push({ type: 'message', text: 'too late', delayMs: 1000 }, text('in time'));
    const outcome = await w.turn({ tools: [] });
    expect(outcome).toMatchObject({ kind: 'ended', text: 'in time' });
  });

  it('every request and its tokens are counted in the metrics', async () => {
    const w = await h.world();
    const metrics = createMetrics();
    w.llm.push(failure(500), text('ok', { prompt_tokens: 30, completion_tokens: 7 }));

    await w.turn({ tools: [], metrics, sessionKind: 'executor' });

    const requests = await metrics.llmRequests.get();
    const byOutcome = Object.fromEntries(requests.values.map((v) => [v.labels.outcome, v.value]));
    expect(byOutcome).toEqual({ ok: 1, error: 1 });
    const tokens = await metrics.llmTokens.get();
    expect(tokens.values.map((v) => [v.labels.session, v.labels.kind, v.value])).toEqual([
      ['executor', 'prompt', 30],
      ['executor', 'completion', 7],
    ]);
  });
});

describe('streaming', () => {
  it('a streamed answer with tool-call deltas runs the same turn as a plain one', async () => {
    const w = await h.world({ stream: true });
    const effects: { text: string; key: string }[] = [];
    w.llm.push(
      toolCalls(['note', { text: 'a fairly long note text' }], ['note', { text: 'b' }]),
      text('streamed answer, in pieces', { prompt_tokens: 3, completion_tokens: 4 }),
    );

    const outcome = await w.turn({ tools: [noteTool(effects)] });

    expect(w.llm.requests[0]?.stream).toBe(true);
    expect(effects.map((e) => e.text)).toEqual(['a fairly long note text', 'b']);
    // The first answer's tokens as the fake counted them, then the scripted 3 + 4.
    const first = Number(w.llm.requests[0]?.usage?.total_tokens);
    expect(outcome).toMatchObject({
      kind: 'ended',
      text: 'streamed answer, in pieces',
      usage: { tokens: first + 7 },
    });
  });
});
