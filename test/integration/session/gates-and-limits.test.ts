import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, toolOk } from '../../../src/session/tool.ts';
import { proceed, stopTurn } from '../../../src/session/turn-outcome.ts';
import { text, toolCalls } from '../../kit/fake-llm.ts';
import { noteTool, sessionHarness } from './harness.ts';

const h = await sessionHarness();
const prompt = async () => ({ text: 'system', revision: 1 });

describe('gates', () => {
  it('R-D2: a pause arriving mid-turn stops the loop before its next model request', async () => {
    const w = await h.world();
    let paused = false;
    const pauseTool = defineTool({
      name: 'work',
      description: 'Work, during which a person pauses the ticket',
      parameters: z.object({}),
      run: () => {
        paused = true;
        return toolOk('worked');
      },
    });
    w.llm.push(toolCalls(['work', {}]), text('never asked'));

    const outcome = await w.turn({
      tools: [pauseTool],
      hooks: { systemPrompt: prompt, beforeModelRequest: () => (paused ? stopTurn('paused') : proceed) },
    });

    expect(outcome).toMatchObject({ kind: 'stopped', reason: 'paused', before: 'model_request' });
    expect(w.llm.requests).toHaveLength(1);
  });

  it('R-D2: a pause stops the loop before its next tool call, and the calls not run stay unrun', async () => {
    const w = await h.world();
    const effects: { text: string; key: string }[] = [];
    w.llm.push(toolCalls(['note', { text: 'a' }], ['note', { text: 'b' }]));

    const outcome = await w.turn({
      tools: [noteTool(effects)],
      hooks: { systemPrompt: prompt, beforeToolCall: () => (effects.length ? stopTurn('paused') : proceed) },
    });

    expect(outcome).toMatchObject({ kind: 'stopped', reason: 'paused', before: 'tool_call' });
    expect(effects.map((e) => e.text)).toEqual(['a']);
  });

  it('R-D2: a stopped turn run again under its id continues where it stopped, its pause not counted as wall time', async () => {
    const w = await h.world();
    const effects: { text: string; key: string }[] = [];
    let clock = 0;
    let paused = true;
    w.llm.push(toolCalls(['note', { text: 'a' }]), text('finished'));
    const run = () =>
      w.turn({
        tools: [noteTool(effects)],
        limits: { maxWallTimeMs: 1000 },
        now: () => clock,
        hooks: { systemPrompt: prompt, beforeToolCall: () => (paused ? stopTurn('paused') : proceed) },
      });

    expect((await run()).kind).toBe('stopped');
    clock = 60_000;
    paused = false;
    const outcome = await run();

    expect(outcome).toMatchObject({ kind: 'ended', text: 'finished', usage: { modelRequests: 2 } });
    expect(effects.map((e) => e.text)).toEqual(['a']);
  });

  it('a new turn after a stopped one answers the old unrun calls with an error and runs none of them', async () => {
    const w = await h.world();
    const effects: { text: string; key: string }[] = [];
    w.llm.push(toolCalls(['note', { text: 'a' }]), text('fresh start'));
    await w.turn({
      tools: [noteTool(effects)],
      hooks: { systemPrompt: prompt, beforeToolCall: () => stopTurn('paused') },
    });

    const outcome = await w.turn({
      tools: [noteTool(effects)],
      turnId: 'turn-2',
      input: [{ role: 'user', content: 'resume' }],
    });

    expect(outcome.kind).toBe('ended');
    expect(effects).toEqual([]);
    const sent = w.llm.requests[1]?.messages ?? [];
    expect(sent.at(-2)?.content).toMatch(/^Error: not run/);
    expect(sent.at(-1)?.content).toBe('resume');
  });
});

describe('budgets', () => {
  it('the model-request budget stops the turn with a limit outcome naming it', async () => {
    const w = await h.world();
    w.llm.respond(() => toolCalls(['note', { text: 'again' }]));

    const outcome = await w.turn({ tools: [noteTool([])], limits: { maxModelRequests: 2 } });

    expect(outcome).toMatchObject({ kind: 'limit', limit: 'model_requests', usage: { modelRequests: 2 } });
    expect(outcome.kind === 'limit' && outcome.detail).toBe('2 of 2 model requests used');
    expect(w.llm.requests).toHaveLength(2);
  });

  it('the token budget stops the turn once the tokens used reach it', async () => {
    const w = await h.world();
    w.llm.respond(() => ({
      type: 'message',
      toolCalls: [{ name: 'note', arguments: { text: 'x' } }],
      usage: { prompt_tokens: 600, completion_tokens: 100 },
    }));

    const outcome = await w.turn({ tools: [noteTool([])], limits: { maxTokens: 1000 } });

    expect(outcome).toMatchObject({
      kind: 'limit',
      limit: 'tokens',
      usage: { modelRequests: 2, tokens: 1400 },
    });
  });

  it('the wall-time budget stops the turn before its next step', async () => {
    const w = await h.world();
    let clock = 0;
    const effects: { text: string; key: string }[] = [];
    w.llm.respond(() => {
      clock += 600;
      return toolCalls(['note', { text: 'slow' }]);
    });

    const outcome = await w.turn({
      tools: [noteTool(effects)],
      limits: { maxWallTimeMs: 1000 },
      now: () => clock,
    });

    expect(outcome).toMatchObject({ kind: 'limit', limit: 'wall_time' });
    expect(w.llm.requests).toHaveLength(2);
    expect(effects).toHaveLength(1);
  });
});
