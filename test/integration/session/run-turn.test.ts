import { describe, expect, it } from 'vitest';
import { createTranscriptStore } from '../../../src/session/transcript-store.ts';
import { text, toolCalls } from '../../kit/fake-llm.ts';
import { noteTool, sessionHarness } from './harness.ts';

const h = await sessionHarness();

describe('runTurn', () => {
  it('runs model request → tool calls → results until the model answers without tool calls', async () => {
    const w = await h.world();
    const effects: { text: string; key: string }[] = [];
    w.llm.push(
      toolCalls(['note', { text: 'a' }]),
      toolCalls(['note', { text: 'b' }], ['note', { text: 'c' }]),
      text('done'),
    );

    const outcome = await w.turn({ tools: [noteTool(effects)] });

    // Tokens as the model reported them: prompt tokens it counted from each request, plus completion.
    const reported = w.llm.requests.reduce((n, r) => n + Number(r.usage?.total_tokens), 0);
    expect(reported).toBeGreaterThan(45);
    expect(outcome).toMatchObject({
      kind: 'ended',
      text: 'done',
      usage: { modelRequests: 3, tokens: reported },
    });
    expect(effects.map((e) => e.text)).toEqual(['a', 'b', 'c']);
    expect(w.llm.requests).toHaveLength(3);
    expect(w.llm.requests[0]?.tools.map((t) => t.function.name)).toEqual(['note']);
    expect(w.llm.requests[0]?.model).toBe('deepseek-flash');
    expect(w.llm.requests[0]?.authorization).toBe('Bearer test-key');
    const third = w.llm.requests[2]?.messages ?? [];
    expect(third.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      'noted a',
      'noted b',
      'noted c',
    ]);
    const stored = await createTranscriptStore({ redis: w.redis, keys: w.keys }).load('sess-1');
    expect(stored.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'tool',
      'assistant',
    ]);
    expect(stored.step).toBe(7);
    expect(stored.turn?.status).toBe('ended');
  });

  it('CONTRACT model side: arguments that break the schema answer an error result and have no effect', async () => {
    const w = await h.world();
    const effects: { text: string; key: string }[] = [];
    w.llm.push(toolCalls(['note', { text: 'x'.repeat(51) }]), text('sorry'));

    const outcome = await w.turn({ tools: [noteTool(effects)] });

    expect(outcome.kind).toBe('ended');
    expect(effects).toEqual([]);
    const toolMessage = w.llm.requests[1]?.messages.at(-1);
    expect(toolMessage?.role).toBe('tool');
    expect(toolMessage?.content).toMatch(/^Error: invalid arguments for note, nothing was done/);
    expect(toolMessage?.content).toContain('text');
  });

  it('CONTRACT model side: an unknown tool answers an error result naming the tools that exist', async () => {
    const w = await h.world();
    w.llm.push(toolCalls(['sleep', { seconds: 60 }]), text('ok'));

    const outcome = await w.turn({ tools: [noteTool([])] });

    expect(outcome.kind).toBe('ended');
    expect(w.llm.requests[1]?.messages.at(-1)?.content).toBe(
      'Error: unknown tool "sleep"; the tools are: note',
    );
  });

  it('R-F3: the system prompt is assembled before every model request, and each revision is recorded', async () => {
    const w = await h.world();
    let revision = 0;
    w.llm.push(toolCalls(['note', { text: 'a' }]), text('done'));

    await w.turn({
      tools: [noteTool([])],
      hooks: { systemPrompt: async () => ({ text: `prompt at revision ${++revision}`, revision }) },
    });

    expect(w.llm.requests.map((r) => r.system)).toEqual(['prompt at revision 1', 'prompt at revision 2']);
    expect(w.llm.requests[1]?.messages[0]?.role).toBe('system');
    const recorded = await w.redis.zrange(w.keys.sessionRevisions('sess-1'), 0, -1);
    expect(recorded).toEqual(['1', '2']);
  });

  it('running a finished turn again (a retried job) answers its outcome without asking the model', async () => {
    const w = await h.world();
    w.llm.push(text('done'));
    const first = await w.turn({ tools: [] });
    const again = await w.turn({ tools: [] });
    expect(again).toEqual(first);
    expect(w.llm.requests).toHaveLength(1);
  });

  it('a new turn continues the conversation: its input follows the last answer', async () => {
    const w = await h.world();
    w.llm.push(text('first answer'), text('second answer'));
    await w.turn({ tools: [] });
    const outcome = await w.turn({
      tools: [],
      turnId: 'turn-2',
      input: [{ role: 'user', content: 'and then?' }],
    });
    expect(outcome).toMatchObject({ kind: 'ended', text: 'second answer' });
    expect(w.llm.requests[1]?.messages.slice(1).map((m) => m.content)).toEqual([
      '<card id="c1" source="feishu" kind="message">do it</card>',
      'first answer',
      'and then?',
    ]);
  });
});
