import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, toolOk } from '../../../src/session/tool.ts';
import { text, toolCalls } from '../../kit/fake-llm.ts';
import { sessionHarness } from './harness.ts';

const { world } = await sessionHarness();

/** Two reads that each finish only once the other has started: run one after the other, they never do. */
function meetingReads() {
  const started = new Set<string>();
  let wake: () => void = () => undefined;
  const bothStarted = new Promise<void>((r) => {
    wake = r;
  });
  const read = (name: string, other: string) =>
    defineTool({
      name,
      description: 'Read something',
      parameters: z.object({}),
      async run() {
        started.add(name);
        if (started.has(other)) wake();
        const timeout = new Promise<'alone'>((r) => setTimeout(() => r('alone'), 3000));
        const met = await Promise.race([bothStarted.then(() => 'met' as const), timeout]);
        return toolOk(`${name}: ${met}`);
      },
    });
  return [read('read_a', 'read_b'), read('read_b', 'read_a')];
}

describe('reads together, and a budget the model can see (issue 28)', () => {
  it('issue 28: reads the caller marks run at the same time, and their results are recorded in the answer’s order', async () => {
    const { llm, turn } = await world();
    llm.push(toolCalls(['read_b', {}], ['read_a', {}]), text('Read both.'));
    const tools = meetingReads();
    const outcome = await turn({ tools, runTogether: (c) => c.function.name.startsWith('read_') });
    expect(outcome.kind).toBe('ended');
    const results = (llm.requests[1]?.messages ?? []).filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results).toEqual(['read_b: met', 'read_a: met']);
  });

  it('issue 28: without the mark the same reads run one after the other (the check above would fail)', async () => {
    const { llm, turn } = await world();
    llm.push(toolCalls(['read_a', {}], ['read_b', {}]), text('Read both.'));
    await turn({ tools: meetingReads() });
    const results = (llm.requests[1]?.messages ?? []).filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results).toEqual(['read_a: alone', 'read_b: met']);
  });

  it('issue 28: from 5 requests left every tool result says how many; from 2, to commit what works and report', async () => {
    const { llm, turn } = await world();
    const echo = defineTool({
      name: 'echo',
      description: 'Echo',
      parameters: z.object({ n: z.number() }),
      run: ({ n }) => toolOk(`echo ${n}`),
    });
    for (let n = 1; n <= 8; n++) llm.push(toolCalls(['echo', { n }]));
    const outcome = await turn({ tools: [echo], limits: { maxModelRequests: 8 } });
    expect(outcome).toMatchObject({ kind: 'limit', limit: 'model_requests' });
    const results = (llm.requests.at(-1)?.messages ?? [])
      .filter((m) => m.role === 'tool')
      .map((m) => m.content);
    expect(results).toEqual([
      'echo 1',
      'echo 2',
      'echo 3\n\n[budget: 5 requests left in this turn]',
      'echo 4\n\n[budget: 4 requests left in this turn]',
      'echo 5\n\n[budget: 3 requests left in this turn]',
      'echo 6\n\n[budget: 2 requests left in this turn — commit what works and `report` now]',
      'echo 7\n\n[budget: 1 request left in this turn — commit what works and `report` now]',
    ]);
  });
});
