import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contextPrompts } from '../../../src/session/context/context-prompts.ts';
import type { ContextState } from '../../../src/session/context/context-state.ts';
import { defineTool, toolOk } from '../../../src/session/tool.ts';
import { createTranscriptStore } from '../../../src/session/transcript-store.ts';
import { type FakeReply, failure, type RecordedRequest, text, toolCalls } from '../../kit/fake-llm.ts';
import { fakePromptTokens } from '../../kit/fake-llm-window.ts';
import { sessionHarness } from './harness.ts';

const h = await sessionHarness();

const WINDOW = 16_000;
const OUTPUT_CHARS = 8_000;

/** Paths read so far by the tool below (what the model has done, whatever its view shows). */
const read = new Set<string>();

/** A file per path, 8 kB, its name at both ends so head and tail say which it is. */
const readFile = defineTool({
  name: 'read_file',
  description: 'Read a file',
  parameters: z.object({ path: z.string() }),
  run: ({ path }) => {
    read.add(path);
    return toolOk(`BEGIN ${path}\n${'lorem ipsum '.repeat(OUTPUT_CHARS / 12)}\nEND ${path}`);
  },
});

const isSummary = (req: RecordedRequest) => req.system === contextPrompts.summarise;

/**
 * A model that reads `f1`…`fN` one step at a time, then ends; asked to summarise, it lists the
 * files it finds in what it is given (so the summary is built from what the product sent it).
 */
function reader(reads: number, onRequest?: (req: RecordedRequest) => void) {
  return (req: RecordedRequest): FakeReply => {
    onRequest?.(req);
    if (isSummary(req)) {
      const files = [
        ...new Set([...(req.messages[1]?.content ?? '').matchAll(/\bf\d+\b/g)].map((m) => m[0])),
      ];
      return text(`SUMMARY: card c1; read ${files.join(', ')}`);
    }
    const next = read.size + 1;
    return next <= reads ? toolCalls(['read_file', { path: `f${next}` }, `call_${next}`]) : text('all read');
  };
}

describe('context that never overflows (R-H2, session level)', () => {
  beforeEach(() => read.clear());

  it('R-H2: a 30-read turn in a 16k window elides, then summarises, in large steps; every request fits; the transcript keeps every step', async () => {
    const w = await h.world();
    w.llm.setContextWindow({ tokens: WINDOW });
    w.llm.respond(reader(30));
    const outcome = await w.turn({
      tools: [readFile],
      contextTokens: WINDOW,
      limits: { maxModelRequests: 60 },
    });
    expect(outcome).toMatchObject({ kind: 'ended', text: 'all read' });

    const main = w.llm.requests.filter((r) => !isSummary(r));
    for (const r of w.llm.requests) expect(fakePromptTokens(r)).toBeLessThanOrEqual(WINDOW);
    // The final step sees the last output whole and the progress of the summarised steps.
    const last = main.at(-1) as RecordedRequest;
    expect(last.messages.at(-1)?.content).toContain('END f30');
    expect(last.messages.at(-1)?.content?.length).toBeGreaterThan(OUTPUT_CHARS);
    expect(last.messages[1]?.content).toMatch(/^Progress so far[\s\S]*SUMMARY: card c1; read f1, f2/);
    // Elided outputs say how to get them back.
    expect(JSON.stringify(last.messages)).toMatch(
      /were cut to keep the context small; to see them, call read_file/,
    );

    // Large steps: between two compactions several requests share one growing prefix.
    const store = createTranscriptStore({ redis: w.redis, keys: w.keys });
    const t = await store.load('sess-1');
    const ctx = t.context as ContextState;
    expect(ctx.summary).toBeDefined();
    expect(ctx.compactions).toBeGreaterThanOrEqual(2);
    expect(ctx.compactions).toBeLessThanOrEqual(main.length / 3);
    // Nothing stored was rewritten: every output is in the transcript whole.
    const outputs = t.messages.filter((m) => m.role === 'tool');
    expect(outputs).toHaveLength(30);
    for (const o of outputs) expect(o.content.length).toBeGreaterThan(OUTPUT_CHARS);
  });

  it('issue 48: the newest update_plan stays in view after the compaction summarises its call away', async () => {
    const w = await h.world();
    w.llm.setContextWindow({ tokens: WINDOW });
    // The caller keeps the plan (the executor: on the ticket) and hands it to the compaction.
    let stored: string | undefined;
    const updatePlan = defineTool({
      name: 'update_plan',
      description: 'Plan',
      parameters: z.object({ steps: z.array(z.object({ step: z.string(), status: z.string() })) }),
      run: ({ steps }) => {
        stored = steps.map((s) => `- [>] ${s.step}`).join('\n');
        return toolOk('plan updated');
      },
    });
    const reads = reader(30);
    const steps = [{ step: 'Read every file', status: 'in_progress' }];
    w.llm.respond((req) =>
      !isSummary(req) && !req.messages.some((m) => m.role === 'assistant')
        ? toolCalls(['update_plan', { steps }, 'call_plan'])
        : reads(req),
    );
    const outcome = await w.turn({
      tools: [updatePlan, readFile],
      contextTokens: WINDOW,
      limits: { maxModelRequests: 60 },
      hooks: {
        systemPrompt: async () => ({ text: 'You are a test session.', revision: 1 }),
        planInView: async () => stored,
      },
    });
    expect(outcome).toMatchObject({ kind: 'ended', text: 'all read' });
    // Issue 48 item 5: the summarising request runs without thinking, the turn's own with it.
    const summaries = w.llm.requests.filter(isSummary);
    expect(summaries.length).toBeGreaterThan(0);
    for (const r of summaries) expect(r.body.thinking).toEqual({ type: 'disabled' });
    const last = w.llm.requests.filter((r) => !isSummary(r)).at(-1) as RecordedRequest;
    expect(last.body.thinking).toEqual({ type: 'enabled' });
    // The call itself was summarised away; its plan is in the progress message.
    expect(last.messages.some((m) => m.tool_calls?.some((c) => c.function.name === 'update_plan'))).toBe(
      false,
    );
    expect(last.messages[1]?.content).toMatch(/^Progress so far[\s\S]*- \[>\] Read every file/);
  });

  it('R-H2: a turn killed right after a compaction resumes under it, without summarising again', async () => {
    const w = await h.world();
    const controller = new AbortController();
    let summaries = 0;
    let killAt: number | undefined;
    w.llm.respond((req) => {
      if (isSummary(req)) summaries += 1;
      // The first request after the first summary: the worker dies while it is in flight.
      else if (summaries === 1 && killAt === undefined) {
        killAt = w.llm.requests.length - 1;
        controller.abort();
        return { type: 'message', text: 'never seen', delayMs: 2000 };
      }
      return reader(20)(req);
    });
    const first = await w.turn({
      tools: [readFile],
      contextTokens: WINDOW,
      limits: { maxModelRequests: 60 },
      signal: controller.signal,
    });
    expect(first).toMatchObject({ kind: 'stopped', reason: 'shutdown' });
    const killed = w.llm.requests[killAt as number] as RecordedRequest;
    expect(killed.messages[1]?.content).toMatch(/^Progress so far/);

    const second = await w.turn({
      tools: [readFile],
      contextTokens: WINDOW,
      limits: { maxModelRequests: 60 },
    });
    expect(second).toMatchObject({ kind: 'ended', text: 'all read' });
    const resumed = w.llm.requests[(killAt as number) + 1] as RecordedRequest;
    // The same request again, the same compacted view: no second summary in between.
    expect(isSummary(resumed)).toBe(false);
    expect(resumed.messages).toEqual(killed.messages);
  });

  it('R-H2: a worker dying during the summarising call loses nothing and duplicates nothing: the resumed turn summarises once', async () => {
    const w = await h.world();
    const controller = new AbortController();
    let summaries = 0;
    w.llm.respond((req) => {
      if (isSummary(req) && ++summaries === 1) {
        controller.abort();
        return { type: 'message', text: 'never seen', delayMs: 2000 };
      }
      return reader(20)(req);
    });
    const first = await w.turn({
      tools: [readFile],
      contextTokens: WINDOW,
      limits: { maxModelRequests: 60 },
      signal: controller.signal,
    });
    expect(first).toMatchObject({ kind: 'stopped', reason: 'shutdown' });
    const store = createTranscriptStore({ redis: w.redis, keys: w.keys });
    const before = await store.load('sess-1');
    expect(before.context.summary).toBeUndefined();

    const second = await w.turn({
      tools: [readFile],
      contextTokens: WINDOW,
      limits: { maxModelRequests: 60 },
    });
    expect(second).toMatchObject({ kind: 'ended', text: 'all read' });
    const after = await store.load('sess-1');
    expect(after.context.summary).toContain('SUMMARY');
    // The steps stored before the kill are still there, once each, in order.
    expect(after.messages.slice(0, before.messages.length)).toEqual(before.messages);
    const paths = after.messages.flatMap((m) =>
      m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.function.arguments) : [],
    );
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths).toHaveLength(20);
  });

  it('R-H2: a context-length 400 (DeepSeek’s shape) compacts to the window it names and retries once', async () => {
    const w = await h.world();
    // The product believes the window is 100k; the provider's is 16k and says so in its 400.
    w.llm.setContextWindow({ tokens: WINDOW });
    w.llm.respond(reader(12));
    const outcome = await w.turn({
      tools: [readFile],
      contextTokens: 100_000,
      limits: { maxModelRequests: 60 },
    });
    expect(outcome).toMatchObject({ kind: 'ended', text: 'all read' });
    const refused = w.llm.requests.findIndex((r) => fakePromptTokens(r) > WINDOW);
    expect(refused).toBeGreaterThan(0);
    // Only one refusal: the retry and every later request fit the window the error named.
    const over = w.llm.requests.filter((r) => fakePromptTokens(r) > WINDOW);
    expect(over).toHaveLength(1);
    const retry = w.llm.requests.slice(refused + 1).find((r) => !isSummary(r)) as RecordedRequest;
    expect(retry.messages.at(-1)).toEqual(w.llm.requests[refused]?.messages.at(-1));
  });

  it('R-H2: the OpenAI shape (`context_length_exceeded`) is recognised too; a request still too long after compacting fails the turn with the reason, after one retry', async () => {
    const w = await h.world();
    // So small that even the system prompt and one output cannot fit.
    w.llm.setContextWindow({ tokens: 1_000, style: 'openai' });
    w.llm.respond(reader(3));
    w.llm.push(toolCalls(['read_file', { path: 'f1' }, 'call_1']));
    w.llm.setContextWindow(undefined);
    const outcome = await w.turn({ tools: [readFile], contextTokens: 100_000 });
    expect(outcome.kind).toBe('ended');
    w.llm.setContextWindow({ tokens: 1_000, style: 'openai' });
    const before = w.llm.requests.length;
    const failed = await w.turn({
      turnId: 'turn-2',
      input: [{ role: 'user', content: 'x'.repeat(10_000) }],
      tools: [readFile],
      contextTokens: 100_000,
    });
    expect(failed).toMatchObject({
      kind: 'failed',
      reason: expect.stringMatching(/400.*maximum context length/),
    });
    const asked = w.llm.requests.slice(before).filter((r) => !isSummary(r));
    expect(asked).toHaveLength(2);
  });

  it('R-H2: a summarising call that fails (500s) or answers nothing does not stop the turn: a digest of the calls stands in', async () => {
    for (const broken of [failure(500), text('')]) {
      read.clear();
      const w = await h.world();
      w.llm.respond((req) => (isSummary(req) ? broken : reader(20)(req)));
      const outcome = await w.turn({
        tools: [readFile],
        contextTokens: WINDOW,
        limits: { maxModelRequests: 60 },
      });
      expect(outcome).toMatchObject({ kind: 'ended', text: 'all read' });
      const last = w.llm.requests.filter((r) => !isSummary(r)).at(-1) as RecordedRequest;
      expect(last.messages[1]?.content).toMatch(
        /^Progress so far[\s\S]*- input: <card id="c1"[\s\S]*- you called read_file\(\{"path":"f1"\}\)/,
      );
    }
  });
});
