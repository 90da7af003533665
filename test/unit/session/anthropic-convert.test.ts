import type { Message } from '@anthropic-ai/sdk/resources/messages/messages';
import { describe, expect, it } from 'vitest';
import { fromAnthropicMessage } from '../../../src/session/anthropic-reply.ts';
import { toAnthropicMessages, toAnthropicParams } from '../../../src/session/anthropic-request.ts';
import { claudeVersion, thinkingParams } from '../../../src/session/anthropic-thinking.ts';
import type { ChatMessage } from '../../../src/session/chat-message.ts';
import { TruncatedAnswerError } from '../../../src/session/errors/truncated-answer-error.ts';
import { describeModelError, isTransient } from '../../../src/session/retry-policy.ts';

const call = (id: string, name: string, args: unknown) => ({
  id,
  type: 'function' as const,
  function: { name, arguments: JSON.stringify(args) },
});

describe('our transcript as Messages API turns (issue 12, R-H1)', () => {
  it('R-H1: tool results open the next user turn together, refusals are is_error, ids fit the API pattern', () => {
    const transcript: ChatMessage[] = [
      { role: 'user', content: 'do it' },
      {
        role: 'assistant',
        content: 'On it.',
        tool_calls: [call('call:1', 'note', { text: 'a' }), call('call_2', 'note', {})],
      },
      { role: 'tool', tool_call_id: 'call:1', content: 'noted a' },
      { role: 'user', content: 'a follow-up' },
      { role: 'tool', tool_call_id: 'call_2', content: 'Error: refused: too long' },
    ];
    expect(toAnthropicMessages(transcript)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'do it' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'On it.' },
          { type: 'tool_use', id: 'call_1', name: 'note', input: { text: 'a' } },
          { type: 'tool_use', id: 'call_2', name: 'note', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1', content: 'noted a' },
          { type: 'tool_result', tool_use_id: 'call_2', content: 'Error: refused: too long', is_error: true },
          { type: 'text', text: 'a follow-up' },
        ],
      },
    ]);
  });

  it('R-H1: an empty message never becomes an empty block; a transcript opening with the assistant gets a user turn first', () => {
    const out = toAnthropicMessages([
      { role: 'assistant', content: 'hello' },
      { role: 'user', content: '' },
      { role: 'assistant', content: null },
    ]);
    expect(out.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(out)).not.toContain('"text":""');
  });

  it('R-H2: breakpoints sit on the last tool, the system prompt and the last message: three of four', () => {
    const params = toAnthropicParams(
      {
        system: 'sys',
        messages: [{ role: 'user', content: 'hi' }],
        tools: [
          { type: 'function', function: { name: 'a', parameters: { type: 'object', properties: {} } } },
          {
            type: 'function',
            function: { name: 'b', description: 'B', parameters: { type: 'object', properties: {} } },
          },
        ],
      },
      'claude-haiku-4-5',
      512,
    );
    expect(params.max_tokens).toBe(512);
    expect(params.tools?.map((t) => 'cache_control' in t)).toEqual([false, true]);
    expect(params.system).toEqual([{ type: 'text', text: 'sys', cache_control: { type: 'ephemeral' } }]);
    expect(JSON.stringify(params).match(/cache_control/g)).toHaveLength(3);
  });
});

const message = (
  content: Message['content'],
  stop: Message['stop_reason'],
  usage: Partial<Message['usage']> = {},
) => ({
  content,
  stop_reason: stop,
  usage: {
    input_tokens: 10,
    output_tokens: 5,
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: 0,
    ...usage,
  } as Message['usage'],
});

describe('a Messages API answer as our assistant message (issue 12, R-H1)', () => {
  it('R-H1: text and tool_use blocks become content and tool calls; usage counts cache reads and writes as prompt tokens', () => {
    const reply = fromAnthropicMessage(
      message(
        [
          { type: 'text', text: 'Reading.', citations: null },
          {
            type: 'tool_use',
            id: 'toolu_1',
            name: 'read_file',
            input: { path: 'a' },
          } as Message['content'][number],
        ],
        'tool_use',
        { input_tokens: 100, cache_read_input_tokens: 900, cache_creation_input_tokens: 50 },
      ),
    );
    expect(reply.message).toEqual({
      role: 'assistant',
      content: 'Reading.',
      tool_calls: [
        { id: 'toolu_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } },
      ],
    });
    expect(reply.usage).toEqual({ promptTokens: 1050, completionTokens: 5, cacheHitTokens: 900 });
  });

  it('R-H1, issue 28: an answer cut short by max_tokens inside a tool call is refused (never stored; the turn, not the retry loop, asks again with a note); cut short in text it is kept and marked cut', () => {
    const tool = {
      type: 'tool_use',
      id: 'toolu_2',
      name: 'write_file',
      input: { path: 'a' },
    } as Message['content'][number];
    let cut: unknown;
    try {
      fromAnthropicMessage(message([tool], 'max_tokens'));
    } catch (err) {
      cut = err;
    }
    expect(cut).toBeInstanceOf(TruncatedAnswerError);
    expect(isTransient(cut)).toBe(false);
    expect(describeModelError(cut)).toMatch(/inside tool call "write_file": raise LLM_MAX_TOKENS/);
    const textOnly = fromAnthropicMessage(
      message([{ type: 'text', text: 'partial', citations: null }], 'max_tokens'),
    );
    expect(textOnly.message).toEqual({ role: 'assistant', content: 'partial' });
    expect(textOnly.cutAtLimit).toBe(true);
    expect(
      fromAnthropicMessage(message([{ type: 'text', text: 'whole', citations: null }], 'end_turn'))
        .cutAtLimit,
    ).toBeUndefined();
    expect(fromAnthropicMessage(message([], 'refusal')).message).toEqual({
      role: 'assistant',
      content: null,
    });
  });
});

describe('extended thinking on the Messages API (issue 12, R-H1)', () => {
  it('R-H1: thinking blocks come back verbatim and in order, before the text and tool calls of their turn', () => {
    const blocks = [
      { type: 'thinking' as const, thinking: 'plan', signature: 'sig-1' },
      { type: 'redacted_thinking' as const, data: 'opaque' },
    ];
    const reply = fromAnthropicMessage(
      message(
        [
          { type: 'thinking', thinking: 'plan', signature: 'sig-1' },
          { type: 'redacted_thinking', data: 'opaque' },
          { type: 'tool_use', id: 'toolu_9', name: 'note', input: {} } as Message['content'][number],
        ],
        'tool_use',
      ),
    );
    expect(reply.message.thinking_blocks).toEqual(blocks);
    const [, assistant] = toAnthropicMessages([{ role: 'user', content: 'go' }, reply.message]);
    expect(assistant?.content).toEqual([
      ...blocks,
      { type: 'tool_use', id: 'toolu_9', name: 'note', input: {} },
    ]);
  });

  it('R-H1: model versions pick the thinking form; the budget stays at least 1,024 and under max_tokens', () => {
    expect(claudeVersion('claude-haiku-4-5-20250929')).toEqual([4, 5]);
    expect(claudeVersion('claude-3-7-sonnet-20250219')).toEqual([3, 7]);
    expect(claudeVersion('claude-sonnet-5')).toEqual([5, 0]);
    expect(thinkingParams('claude-opus-4-6', 16_384, { thinking: 'enabled', effort: 'high' })).toEqual({
      thinking: { type: 'adaptive' },
    });
    expect(thinkingParams('claude-haiku-4-5', 16_384, { thinking: 'enabled', effort: 'max' })).toEqual({
      thinking: { type: 'enabled', budget_tokens: 15_360 },
    });
    expect(thinkingParams('claude-haiku-4-5', 2_000, { thinking: 'enabled', effort: 'high' })).toEqual({});
    expect(thinkingParams('claude-sonnet-5', 16_384, { thinking: 'disabled', effort: 'max' })).toEqual({});
  });
});
