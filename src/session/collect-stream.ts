import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ToolCall } from './chat-message.ts';
import type { ModelReply } from './model-reply.ts';

/**
 * Folds a streamed completion into one reply: content pieces are joined, tool-call deltas are
 * merged by `index` (the first delta carries id and name, later ones argument pieces).
 */
export async function collectStream(stream: AsyncIterable<ChatCompletionChunk>): Promise<ModelReply> {
  let content = '';
  let sawContent = false;
  const calls = new Map<number, ToolCall>();
  const usage = { promptTokens: 0, completionTokens: 0 };
  for await (const chunk of stream) {
    if (chunk.usage) {
      usage.promptTokens = chunk.usage.prompt_tokens;
      usage.completionTokens = chunk.usage.completion_tokens;
    }
    const delta = chunk.choices[0]?.delta;
    if (delta?.content) {
      content += delta.content;
      sawContent = true;
    }
    for (const d of delta?.tool_calls ?? []) {
      const call = calls.get(d.index) ?? {
        id: '',
        type: 'function' as const,
        function: { name: '', arguments: '' },
      };
      if (d.id) call.id = d.id;
      if (d.function?.name) call.function.name += d.function.name;
      if (d.function?.arguments) call.function.arguments += d.function.arguments;
      calls.set(d.index, call);
    }
  }
  const toolCalls = [...calls.entries()].sort(([a], [b]) => a - b).map(([, c]) => c);
  return {
    message: {
      role: 'assistant',
      content: sawContent ? content : null,
      ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
    },
    usage,
  };
}
