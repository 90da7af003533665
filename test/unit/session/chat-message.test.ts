import { describe, expect, it } from 'vitest';
import { type ChatMessage, pendingToolCalls, type ToolCall } from '../../../src/session/chat-message.ts';

const tc = (id: string): ToolCall => ({ id, type: 'function', function: { name: 'x', arguments: '{}' } });

describe('pendingToolCalls', () => {
  it('lists the last answer’s calls that have no tool message yet, with the answer’s index', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [tc('a'), tc('b'), tc('c')] },
      { role: 'tool', tool_call_id: 'a', content: 'ok' },
    ];
    const pending = pendingToolCalls(messages);
    expect(pending.assistantIndex).toBe(1);
    expect(pending.calls.map((c) => c.id)).toEqual(['b', 'c']);
  });

  it('owes nothing after a plain answer or a user message', () => {
    expect(pendingToolCalls([{ role: 'assistant', content: 'done' }]).calls).toEqual([]);
    expect(pendingToolCalls([{ role: 'user', content: 'hi' }]).calls).toEqual([]);
    expect(pendingToolCalls([]).calls).toEqual([]);
  });
});
