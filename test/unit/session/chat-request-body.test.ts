import { describe, expect, it } from 'vitest';
import type { ChatContract } from '../../../src/session/chat-contract.ts';
import type { ChatMessage } from '../../../src/session/chat-message.ts';
import { chatRequestBody } from '../../../src/session/chat-request-body.ts';

const call = { id: 'c1', type: 'function' as const, function: { name: 'note', arguments: '{}' } };
const messages: ChatMessage[] = [
  { role: 'user', content: 'do it' },
  { role: 'assistant', content: null, tool_calls: [call], reasoning_content: 'I should note it.' },
  { role: 'tool', tool_call_id: 'c1', content: 'noted' },
  { role: 'assistant', content: 'Done.', reasoning_content: 'All noted.' },
  { role: 'user', content: 'and again' },
  // Stored before issue 12 (or with thinking off): no reasoning.
  { role: 'assistant', content: null, tool_calls: [{ ...call, id: 'c2' }] },
  { role: 'tool', tool_call_id: 'c2', content: 'noted' },
];
const body = (contract: ChatContract) => chatRequestBody('m', contract, { system: 's', messages, tools: [] });
const assistants = (b: ReturnType<typeof body>) =>
  b.messages.filter((m) => m.role === 'assistant') as Extract<ChatMessage, { role: 'assistant' }>[];
const SAMPLING = ['temperature', 'top_p', 'presence_penalty', 'frequency_penalty'];

describe('the request body per provider (issue 12, R-H1)', () => {
  it('DeepSeek with thinking on: thinking and effort sent; reasoning back on tool-call messages only, padded when missing', () => {
    const b = body({ provider: 'deepseek', thinking: 'enabled', reasoningEffort: 'max' });
    expect(b.thinking).toEqual({ type: 'enabled' });
    expect(b.reasoning_effort).toBe('max');
    // Padded with one space, not an empty string (issue 28: deepseek-v4-pro refuses "").
    expect(assistants(b).map((m) => m.reasoning_content)).toEqual(['I should note it.', undefined, ' ']);
    expect(assistants(b)[1]).not.toHaveProperty('reasoning_content');
    for (const f of SAMPLING) expect(b).not.toHaveProperty(f);
  });

  it('DeepSeek with thinking off: the switch says disabled, no effort, no reasoning sent', () => {
    const b = body({ provider: 'deepseek', thinking: 'disabled', reasoningEffort: 'high' });
    expect(b.thinking).toEqual({ type: 'disabled' });
    expect(b).not.toHaveProperty('reasoning_effort');
    for (const m of assistants(b)) expect(m).not.toHaveProperty('reasoning_content');
  });

  it('DeepSeek asked withoutThinking (the acknowledgement, issue 28): this request is thinking off, the next on again', () => {
    const contract: ChatContract = { provider: 'deepseek', thinking: 'enabled', reasoningEffort: 'max' };
    const off = chatRequestBody('m', contract, { system: 's', messages, tools: [], withoutThinking: true });
    expect(off.thinking).toEqual({ type: 'disabled' });
    expect(off).not.toHaveProperty('reasoning_effort');
    for (const m of off.messages) expect(m).not.toHaveProperty('reasoning_content');
    const on = chatRequestBody('m', contract, { system: 's', messages, tools: [] });
    expect(on.thinking).toEqual({ type: 'enabled' });
    expect(on.reasoning_effort).toBe('max');
    // A session kind without thinking stays without it; other providers get no switch either way.
    const main = chatRequestBody(
      'm',
      { provider: 'deepseek', thinking: 'disabled' },
      { system: 's', messages, tools: [], withoutThinking: false },
    );
    expect(main.thinking).toEqual({ type: 'disabled' });
    const openai = chatRequestBody(
      'm',
      { provider: 'openai' },
      { system: 's', messages, tools: [], withoutThinking: true },
    );
    expect(openai).not.toHaveProperty('thinking');
  });

  it('OpenAI: no DeepSeek field anywhere, nor reasoning on messages', () => {
    const b = body({ provider: 'openai', thinking: 'enabled', reasoningEffort: 'max' });
    expect(b).not.toHaveProperty('thinking');
    expect(b).not.toHaveProperty('reasoning_effort');
    for (const m of assistants(b)) expect(m).not.toHaveProperty('reasoning_content');
  });

  it('compatible: no DeepSeek field; reasoning goes back only on tool-call messages that came with it', () => {
    const b = body({ provider: 'compatible' });
    expect(b).not.toHaveProperty('thinking');
    expect(b).not.toHaveProperty('reasoning_effort');
    expect(assistants(b).map((m) => 'reasoning_content' in m)).toEqual([true, false, false]);
  });

  it('the stored transcript is not changed by shaping it for the wire', () => {
    body({ provider: 'deepseek', thinking: 'enabled' });
    expect(messages[3]).toHaveProperty('reasoning_content', 'All noted.');
    expect(messages[5]).not.toHaveProperty('reasoning_content');
  });
});
