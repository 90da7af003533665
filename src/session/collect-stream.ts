import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ToolCall } from './chat-message.ts';
import { IncompleteStreamError } from './errors/incomplete-stream-error.ts';
import { checkFinish } from './finish-reason.ts';
import type { ModelReply } from './model-reply.ts';
import type { ToolCallListener } from './tool-call-listener.ts';
import { usageFromWire, type WireUsage } from './usage-from-wire.ts';

/** DeepSeek streams its chain of thought in `delta.reasoning_content`, beside `content`. */
type Delta = ChatCompletionChunk.Choice.Delta & { reasoning_content?: string | null };

export interface StreamWatch {
  /** Hears of each tool call once its arguments are whole (issue 18), while the rest streams. */
  onToolCall?: ToolCallListener | undefined;
  /** No chunk for this long drops the answer (issue 28): `abort` ends the request, and it is retried. */
  idleMs?: number | undefined;
  abort?: (() => void) | undefined;
}

/**
 * Folds a streamed completion into one reply: content and reasoning pieces are joined, tool-call
 * deltas are merged by `index` (the first delta carries id and name, later ones argument pieces).
 * The `finish_reason` decides what the answer is worth (`checkFinish`); a stream that stalls
 * longer than `idleMs` between chunks is an `IncompleteStreamError`.
 */
export async function collectStream(
  stream: AsyncIterable<ChatCompletionChunk>,
  watch: StreamWatch = {},
): Promise<ModelReply> {
  const { onToolCall } = watch;
  let content = '';
  let sawContent = false;
  let reasoning: string | undefined;
  const calls = new Map<number, ToolCall>();
  const told = new Set<number>();
  let usage: WireUsage | undefined;
  let finish: string | undefined;
  for await (const chunk of idleGuarded(stream, watch)) {
    if (chunk.usage) usage = chunk.usage as WireUsage;
    const reason = chunk.choices[0]?.finish_reason;
    if (reason) finish = reason;
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
  if (!finish) throw new IncompleteStreamError();
  const toolCalls = [...calls.entries()].sort(([a], [b]) => a - b).map(([, c]) => c);
  const message: ModelReply['message'] = {
    role: 'assistant',
    content: sawContent ? content : null,
    ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
    ...(reasoning !== undefined ? { reasoning_content: reasoning } : {}),
  };
  const cut = checkFinish(finish, message);
  return { message, usage: usageFromWire(usage), ...(cut ? { cutAtLimit: true as const } : {}) };
}

/**
 * The stream's chunks, each awaited at most `idleMs` (issue 28): a provider that stops sending
 * without closing would hold the turn until the 15-minute watchdog. Only the wait for the next
 * chunk is timed, never the time the consumer spends between chunks.
 */
async function* idleGuarded<T>(stream: AsyncIterable<T>, watch: StreamWatch): AsyncGenerator<T> {
  const it = stream[Symbol.asyncIterator]();
  const idleMs = watch.idleMs;
  for (;;) {
    let timer: NodeJS.Timeout | undefined;
    const stalled = new Promise<'stalled'>((resolve) => {
      if (idleMs !== undefined) timer = setTimeout(() => resolve('stalled'), idleMs);
    });
    const next = await Promise.race([it.next(), stalled]).finally(() => clearTimeout(timer));
    if (next === 'stalled') {
      watch.abort?.();
      // The pending read settles once the abort lands; its outcome no longer matters.
      void it.return?.().catch(() => undefined);
      throw new IncompleteStreamError(`no part of the answer came for ${Math.round((idleMs ?? 0) / 1000)} s`);
    }
    if (next.done) return;
    yield next.value;
  }
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
