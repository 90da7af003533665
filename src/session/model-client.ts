import OpenAI from 'openai';
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionFunctionTool,
} from 'openai/resources/chat/completions';
import type { ChatContract } from './chat-contract.ts';
import type { ChatMessage, ToolCall } from './chat-message.ts';
import { chatRequestBody } from './chat-request-body.ts';
import { collectStream } from './collect-stream.ts';
import { MalformedToolCallError } from './errors/malformed-tool-call-error.ts';
import { checkFinish } from './finish-reason.ts';
import type { ModelReply } from './model-reply.ts';
import { withScopedSignal } from './scoped-signal.ts';
import type { ToolCallListener } from './tool-call-listener.ts';
import { usageFromWire } from './usage-from-wire.ts';

export interface ModelRequest {
  system: string;
  messages: readonly ChatMessage[];
  tools: ChatCompletionFunctionTool[];
  /**
   * Answer this request without thinking where the provider lets a conversation switch it per
   * request (DeepSeek), so an acknowledgement waits for no reasoning. On Anthropic, where a
   * tool-use loop keeps one thinking configuration throughout, the same configuration thinks as
   * little as it allows (`thinkingParams`' `quick`: low effort, or the smallest budget).
   */
  withoutThinking?: boolean;
}

/** One Chat Completions endpoint and model. */
export interface ModelClient {
  readonly model: string;
  /** The answer's token cap the client sends, if any (named in the turn's notes, issue 28). */
  readonly maxTokens?: number | undefined;
  /** `signal` aborts the request in flight (a worker shutting down hands its turn over). */
  complete(request: ModelRequest, signal?: AbortSignal, onToolCall?: ToolCallListener): Promise<ModelReply>;
}

export interface ModelClientOptions {
  baseURL: string;
  apiKey: string;
  model: string;
  /** Per-request time-out; a time-out is retried by the turn like a 5xx. */
  timeoutMs?: number;
  stream?: boolean;
  /** Which provider's contract to speak and, for DeepSeek, the thinking settings (R-H1); default `compatible`. */
  contract?: ChatContract;
  /** The answer's token cap (`LLM_MAX_TOKENS`), sent on every request (issue 28). */
  maxTokens?: number;
  /** Streamed: the longest wait for the next chunk before the answer is dropped and retried. */
  streamIdleMs?: number;
}

/**
 * A model client over the `openai` package. The package's own retries are off: the turn retries
 * with its own back-off (see `requestWithRetry`) so budgets and metrics see every attempt.
 */
export function createModelClient(opts: ModelClientOptions): ModelClient {
  const client = new OpenAI({
    baseURL: opts.baseURL,
    apiKey: opts.apiKey,
    maxRetries: 0,
    timeout: opts.timeoutMs ?? 120_000,
  });
  return {
    model: opts.model,
    maxTokens: opts.maxTokens,
    async complete(req, signal, onToolCall) {
      // DeepSeek's fields (`thinking`, `reasoning_content` on messages) are not in the package's types.
      const body = chatRequestBody(
        opts.model,
        opts.contract ?? { provider: 'compatible' },
        req,
        opts.maxTokens,
      ) as unknown as ChatCompletionCreateParamsNonStreaming;
      return withScopedSignal(signal, async (options) => {
        if (opts.stream) {
          const stream = await client.chat.completions.create(
            { ...body, stream: true, stream_options: { include_usage: true } },
            options,
          );
          const watch = { onToolCall, idleMs: opts.streamIdleMs, abort: () => stream.controller.abort() };
          return checkReply(await collectStream(stream, watch));
        }
        return checkReply(fromCompletion(await client.chat.completions.create(body, options)));
      });
    },
  };
}

function fromCompletion(completion: ChatCompletion): ModelReply {
  // DeepSeek's thinking mode answers `message.reasoning_content` beside `content`.
  const msg = completion.choices[0]?.message as
    | (ChatCompletion.Choice['message'] & { reasoning_content?: string | null })
    | undefined;
  const calls: ToolCall[] = (msg?.tool_calls ?? []).flatMap((c) =>
    c.type === 'function'
      ? [
          {
            id: c.id,
            type: 'function' as const,
            function: { name: c.function.name, arguments: c.function.arguments },
          },
        ]
      : [],
  );
  const message: ModelReply['message'] = {
    role: 'assistant',
    content: msg?.content ?? null,
    ...(calls.length ? { tool_calls: calls } : {}),
    ...(typeof msg?.reasoning_content === 'string' ? { reasoning_content: msg.reasoning_content } : {}),
  };
  const cut = checkFinish(completion.choices[0]?.finish_reason, message);
  return { message, usage: usageFromWire(completion.usage), ...(cut ? { cutAtLimit: true as const } : {}) };
}

/** Rejects an answer whose tool-call arguments are not JSON, so none of it enters the transcript. */
function checkReply(reply: ModelReply): ModelReply {
  for (const c of reply.message.tool_calls ?? []) {
    if (c.function.arguments.trim() === '') continue;
    try {
      JSON.parse(c.function.arguments);
    } catch {
      throw new MalformedToolCallError(c.function.name, c.function.arguments);
    }
  }
  return reply;
}
