import type Anthropic from '@anthropic-ai/sdk';
import type { Message } from '@anthropic-ai/sdk/resources/messages/messages';
import { fromAnthropicMessage } from './anthropic-reply.ts';
import { toAnthropicParams } from './anthropic-request.ts';
import { loadAnthropicSdk } from './anthropic-sdk.ts';
import type { AnthropicThinking } from './anthropic-thinking.ts';
import type { ModelClient } from './model-client.ts';
import { withScopedSignal } from './scoped-signal.ts';

export interface AnthropicClientOptions {
  /** `https://api.anthropic.com` (a trailing `/v1` is dropped: the SDK adds it). */
  baseURL: string;
  apiKey: string;
  model: string;
  /** The answer's token cap; the Messages API requires one on every request. */
  maxTokens: number;
  /** Per-request time-out; a time-out is retried by the turn like a 5xx. */
  timeoutMs?: number;
  stream?: boolean;
  /** The session kind's thinking settings; absent or disabled: the model's default. */
  thinking?: AnthropicThinking;
}

/**
 * A model client over Anthropic's Messages API with the official SDK (R-H1). It speaks the same
 * `ModelClient` contract as the Chat Completions client: our transcript goes out as Messages API
 * blocks (`anthropic-request.ts`) and the answer comes back as an assistant message with tool
 * calls (`anthropic-reply.ts`). The SDK's own retries are off: the turn retries with its own
 * back-off (`requestWithRetry`), and `retry-policy.ts` classes the SDK's errors (429 and 529
 * retried, 400 not).
 */
export function createAnthropicClient(opts: AnthropicClientOptions): ModelClient {
  let made: Promise<Anthropic> | undefined;
  const connect = () =>
    (made ??= loadAnthropicSdk().then(
      ({ default: Sdk }) =>
        new Sdk({
          baseURL: opts.baseURL.replace(/\/+$/, '').replace(/\/v1$/, ''),
          apiKey: opts.apiKey,
          maxRetries: 0,
          timeout: opts.timeoutMs ?? 120_000,
        }),
    ));
  return {
    model: opts.model,
    maxTokens: opts.maxTokens,
    async complete(req, signal) {
      const params = toAnthropicParams(req, opts.model, opts.maxTokens, opts.thinking);
      const client = await connect();
      const message = await withScopedSignal(
        signal,
        async (options): Promise<Pick<Message, 'content' | 'stop_reason' | 'usage'>> =>
          opts.stream
            ? client.messages.stream(params, options).finalMessage()
            : client.messages.create(params, options),
      );
      return fromAnthropicMessage(message);
    },
  };
}
