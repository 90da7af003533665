import { describe, expect, it } from 'vitest';
import type { ChatMessage, ToolCall } from '../../../../src/session/chat-message.ts';
import {
  type ContextState,
  contextView,
  freshContext,
  isStepStart,
} from '../../../../src/session/context/context-state.ts';
import { estimateMessageTokens } from '../../../../src/session/context/count-tokens.ts';
import {
  defaultContextBudget,
  planCompaction,
  viewTokens,
  withSummary,
} from '../../../../src/session/context/plan-compaction.ts';

const call = (id: string, path: string): ToolCall => ({
  id,
  type: 'function',
  function: { name: 'read_file', arguments: JSON.stringify({ path }) },
});

/** A transcript: one input, then `steps` steps of `callsPerStep` reads of `chars` characters each. */
function transcript(steps: number, chars: number, callsPerStep = 1): ChatMessage[] {
  const out: ChatMessage[] = [
    { role: 'user', content: '<card id="c1" source="feishu" kind="message">go</card>' },
  ];
  for (let s = 0; s < steps; s++) {
    const calls = Array.from({ length: callsPerStep }, (_, k) => call(`call_${k}`, `f${s}-${k}.txt`));
    // Providers that think send `reasoning_content`: compaction must carry it untouched.
    out.push({
      role: 'assistant',
      content: null,
      tool_calls: calls,
      reasoning_content: `thought ${s}`,
    } as ChatMessage);
    for (const c of calls)
      out.push({ role: 'tool', tool_call_id: c.id, content: `${s}:`.padEnd(chars, 'x') });
  }
  return out;
}

/** Every tool message of the view answers a call of the nearest assistant message before it. */
function callsKeptWithResults(view: ChatMessage[]): void {
  let open = new Set<string>();
  for (const m of view) {
    if (m.role === 'assistant') open = new Set((m.tool_calls ?? []).map((c) => c.id));
    else if (m.role === 'tool') expect(open.has(m.tool_call_id)).toBe(true);
    else open = new Set();
  }
}

const tokens = (view: ChatMessage[]) => view.reduce((a, m) => a + estimateMessageTokens(m), 0);

describe('planCompaction (R-H2)', () => {
  it('R-H2: under ~75 % of the window nothing is compacted', () => {
    const messages = transcript(5, 1000);
    const window = Math.ceil(tokens(messages) / 0.7);
    expect(planCompaction({ messages, state: freshContext(), fixedTokens: 0, window })).toBeUndefined();
  });

  it('R-H2: past the threshold, old tool outputs are elided first, the recent ones kept whole, down to the target', () => {
    const messages = transcript(20, 4000);
    const window = Math.ceil(tokens(messages) / 0.8);
    const plan = planCompaction({ messages, state: freshContext(), fixedTokens: 0, window });
    expect(plan?.summarise).toBeUndefined();
    const state = plan?.state as ContextState;
    expect(state.compactions).toBe(1);
    expect(isStepStart(messages, state.elidedBefore)).toBe(true);
    const view = contextView(messages, state);
    expect(viewTokens(messages, state)).toBeLessThanOrEqual(window * defaultContextBudget.compactTo);
    // The last step's output is whole; an old one is cut with a note naming the call that brings it back.
    expect(view.at(-1)?.content).toBe(messages.at(-1)?.content);
    const old = view[2] as Extract<ChatMessage, { role: 'tool' }>;
    expect(old.content.length).toBeLessThan(2000);
    expect(old.content).toMatch(
      /characters of this output were cut.*call read_file\(\{"path":"f0-0.txt"\}\) again/,
    );
    expect(old.tool_call_id).toBe('call_0');
    callsKeptWithResults(view);
  });

  it('R-H2: when eliding is not enough, the oldest whole steps are to be summarised, cut at a step start', () => {
    // Many small steps: eliding saves nothing, only a summary can.
    const messages = transcript(200, 600, 2);
    const window = Math.ceil(tokens(messages) / 0.8);
    const plan = planCompaction({ messages, state: freshContext(), fixedTokens: 500, window });
    const cut = plan?.summarise as { from: number; to: number };
    expect(cut.from).toBe(0);
    expect(messages[cut.to]?.role).toBe('assistant');
    const after = withSummary(plan?.state as ContextState, cut.to, 'progress: read many files');
    const view = contextView(messages, after);
    expect(view[0]?.content).toContain('progress: read many files');
    expect(view[1]).toBe(messages[cut.to]);
    // Down to the target (with room for the summary), so the next compaction is far away.
    expect(500 + viewTokens(messages, after)).toBeLessThanOrEqual(window * defaultContextBudget.compactTo);
    callsKeptWithResults(view);
  });

  it('R-H2: assistant messages pass through as they are, every field kept (reasoning_content)', () => {
    const messages = transcript(30, 3000, 3);
    const window = Math.ceil(tokens(messages) / 0.9);
    const plan = planCompaction({ messages, state: freshContext(), fixedTokens: 0, window });
    const state = plan?.summarise
      ? withSummary(plan.state, plan.summarise.to, 's')
      : (plan?.state as ContextState);
    for (const m of contextView(messages, state).filter((x) => x.role === 'assistant')) {
      expect(messages).toContain(m);
      expect((m as { reasoning_content?: string }).reasoning_content).toMatch(/^thought \d+$/);
    }
  });

  it('R-H2: over random transcripts and windows, no cut ever separates a tool call from its results, and marks only move forward', () => {
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 200; round++) {
      const messages = transcript(5 + rnd(60), 50 + rnd(8000), 1 + rnd(4));
      let state = freshContext();
      const window = 2000 + rnd(60_000);
      for (let grow = 0; grow < 3; grow++) {
        const plan = planCompaction({ messages, state, fixedTokens: rnd(1500), window, force: rnd(5) === 0 });
        if (!plan) continue;
        expect(plan.state.elidedBefore).toBeGreaterThanOrEqual(state.elidedBefore);
        if (plan.summarise) {
          expect(isStepStart(messages, plan.summarise.to)).toBe(true);
          expect(plan.summarise.from).toBe(state.summarisedBefore);
          state = withSummary(plan.state, plan.summarise.to, 'summary');
        } else state = plan.state;
        callsKeptWithResults(contextView(messages, state));
        messages.push(...transcript(1 + rnd(5), 50 + rnd(3000)).slice(1));
      }
    }
  });
});
