import type { Message, Usage } from '@anthropic-ai/sdk/resources/messages/messages';
import type { ThinkingBlock, ToolCall } from './chat-message.ts';
import { TruncatedAnswerError } from './errors/truncated-answer-error.ts';
import type { ModelReply } from './model-reply.ts';

/** Anthropic's token counts in our terms, the cache reads and writes kept apart (R-H2). */
export interface AnthropicUsage {
  /** Every prompt token: uncached input, cache reads and cache writes (Anthropic counts them apart). */
  promptTokens: number;
  completionTokens: number;
  /** `cache_read_input_tokens`: prompt tokens served from the prompt cache. */
  cacheHitTokens: number;
  /** `cache_creation_input_tokens`: prompt tokens written to the cache by this request. */
  cacheWriteTokens: number;
}

export function anthropicUsage(u: Partial<Usage> | undefined): AnthropicUsage {
  const read = u?.cache_read_input_tokens ?? 0;
  const write = u?.cache_creation_input_tokens ?? 0;
  return {
    promptTokens: (u?.input_tokens ?? 0) + read + write,
    completionTokens: u?.output_tokens ?? 0,
    cacheHitTokens: read,
    cacheWriteTokens: write,
  };
}

/** Stop reasons after which the answer was cut short: a tool call in it may be incomplete. */
const CUT_SHORT = new Set(['max_tokens', 'model_context_window_exceeded']);

/**
 * A Messages API answer as our assistant message: text blocks joined, `tool_use` blocks as tool
 * calls with their input re-serialised. An answer cut short (`max_tokens`) whose last block is a
 * tool call is refused (`TruncatedAnswerError`: never stored; the turn asks again once, with a note),
 * since its input may be partial; text cut there is kept and marked `cutAtLimit`. `refusal` and `end_turn` end the turn with whatever text came. Thinking blocks (asked
 * for, or the model's default) are kept with their signatures to be sent back (R-H1).
 */
export function fromAnthropicMessage(msg: Pick<Message, 'content' | 'stop_reason' | 'usage'>): ModelReply {
  let text = '';
  let sawText = false;
  const calls: ToolCall[] = [];
  const thinking: ThinkingBlock[] = [];
  for (const block of msg.content) {
    if (block.type === 'text') {
      text += block.text;
      sawText = true;
    } else if (block.type === 'tool_use') {
      calls.push({
        id: block.id,
        type: 'function',
        function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) },
      });
    } else if (block.type === 'thinking') {
      // Kept verbatim: the signature covers the text, and the API refuses a modified block.
      thinking.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
    } else if (block.type === 'redacted_thinking') {
      thinking.push({ type: 'redacted_thinking', data: block.data });
    }
  }
  const last = msg.content.at(-1);
  if (msg.stop_reason && CUT_SHORT.has(msg.stop_reason) && last?.type === 'tool_use') {
    throw new TruncatedAnswerError(last.name, msg.stop_reason);
  }
  const { cacheWriteTokens: _write, ...usage } = anthropicUsage(msg.usage);
  // Issue 28: text cut at the cap is kept, and the turn asks the model once to go on.
  const cut = msg.stop_reason === 'max_tokens';
  return {
    message: {
      role: 'assistant',
      content: sawText ? text : null,
      ...(calls.length ? { tool_calls: calls } : {}),
      ...(thinking.length ? { thinking_blocks: thinking } : {}),
    },
    usage,
    ...(cut ? { cutAtLimit: true as const } : {}),
  };
}
