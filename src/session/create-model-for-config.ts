import type { Config } from '../config.ts';
import { createAnthropicClient } from './anthropic-client.ts';
import type { ChatContract } from './chat-contract.ts';
import { acceptsImages } from './image-input.ts';
import { createModelClient, type ModelClient } from './model-client.ts';

export type SessionKind = 'main' | 'executor';

/**
 * The model client for one session kind, speaking the configured provider's contract (R-H1). The
 * one place that branches on `LLM_PROVIDER`: Chat Completions providers share `createModelClient`,
 * with DeepSeek's thinking settings per session kind; Anthropic's Messages API plugs in here.
 */
export function createModelForConfig(c: Config, kind: SessionKind): ModelClient {
  const model = kind === 'main' ? c.mainModel : c.executorModel;
  const apiKey = c.LLM_API_KEY ?? 'none';
  switch (c.llmProvider) {
    case 'anthropic':
      return createAnthropicClient({
        baseURL: c.LLM_BASE_URL,
        apiKey,
        model,
        maxTokens: c.LLM_MAX_TOKENS,
        thinking:
          kind === 'main'
            ? { thinking: c.MAIN_THINKING, effort: c.MAIN_REASONING_EFFORT }
            : { thinking: c.EXECUTOR_THINKING, effort: c.EXECUTOR_REASONING_EFFORT },
      });
    case 'deepseek':
    case 'openai':
    case 'compatible':
      // Issue 18: executors stream, so their acknowledgement can go out before the answer ends.
      return createModelClient({
        baseURL: c.LLM_BASE_URL,
        apiKey,
        model,
        contract: chatContract(c, kind),
        stream: kind === 'executor',
        maxTokens: c.LLM_MAX_TOKENS,
        streamIdleMs: c.LLM_STREAM_IDLE_MS,
      });
  }
}

/** DeepSeek gets the session kind's thinking switch and effort; the others nothing extra. */
export function chatContract(c: Config, kind: SessionKind): ChatContract {
  if (c.llmProvider !== 'deepseek') return { provider: c.llmProvider === 'openai' ? 'openai' : 'compatible' };
  return kind === 'main'
    ? { provider: 'deepseek', thinking: c.MAIN_THINKING, reasoningEffort: c.MAIN_REASONING_EFFORT }
    : { provider: 'deepseek', thinking: c.EXECUTOR_THINKING, reasoningEffort: c.EXECUTOR_REASONING_EFFORT };
}

/**
 * Whether the session kind's model reads pictures (issue 28, issue 48 item 6): every current
 * Claude model does; a Chat Completions model as `acceptsImages` says.
 */
export function readsPictures(c: Config, kind: SessionKind): boolean {
  if (c.llmProvider === 'anthropic') return true;
  return acceptsImages(chatContract(c, kind).provider, kind === 'main' ? c.mainModel : c.executorModel);
}
