import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ToolCall } from './chat-message.ts';
import { IncompleteStreamError } from './errors/incomplete-stream-error.ts';
import type { ToolCallListener } from './model-client.ts';
import type { ModelReply } from './model-reply.ts';
import { usageFromWire, type WireUsage } from './usage-from-wire.ts';

/** DeepSeek streams its chain of thought in `delta.reasoning_content`, beside `content`. */
type Delta = ChatCompletionChunk.Choice.Delta & { reasoning_content?: string | null };

/**
 * Folds a streamed completion into one reply: content and reasoning pieces are joined, tool-call
 * deltas are merged by `index` (the first delta carries id and name, later ones argument pieces).
 * `onToolCall` hears of each call once its arguments are whole (issue 18), while the rest streams.
 */
export async function collectStream(
  stream: AsyncIterable<ChatCompletionChunk>,
  onToolCall?: ToolCallListener,
): Promise<ModelReply> {
  let content = '';
  let sawContent = false;
  let reasoning: string | undefined;
  const calls = new Map<number, ToolCall>();
  const told = new Set<number>();
  let usage: WireUsage | undefined;
  let finished = false;
  for await (const chunk of stream) {
    if (chunk.usage) usage = chunk.usage as WireUsage;
    if (chunk.choices[0]?.finish_reason) finished = true;
    const delta = chunk.choices[0]?.delta as Delta | undefined;
    if (delta?.content) {
      content += delta.content;
      sawContent = true;
    }
    if (typeof delta?.reasoning_content === 'string') reasoning = (reasoning ?? '') + delta.reasoning_content;
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
      if (onToolCall && !told.has(d.index) && isWhole(call)) {
        told.add(d.index);
        onToolCall({ ...call, function: { ...call.function } }, d.index);
      }
    }
  }
  if (!finished) throw new IncompleteStreamError();
  const toolCalls = [...calls.entries()].sort(([a], [b]) => a - b).map(([, c]) => c);
  return {
    message: {
      role: 'assistant',
      content: sawContent ? content : null,
      ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
      ...(reasoning !== undefined ? { reasoning_content: reasoning } : {}),
    },
    usage: usageFromWire(usage),
  };
}

/**
 * A call is whole once it has its id and name and its arguments parse as one JSON object: no
 * further piece can extend an object whose closing brace came (the text would stop parsing).
 */
function isWhole(call: ToolCall): boolean {
  const args = call.function.arguments.trimEnd();
  if (!call.id || !call.function.name || !args.endsWith('}')) return false;
  try {
    const value: unknown = JSON.parse(args);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
