import type { AssistantMessage } from './chat-message.ts';

export interface ModelUsage {
  /** Every prompt token of the request, those served from the provider's cache included. */
  promptTokens: number;
  completionTokens: number;
  /**
   * Prompt tokens the provider served from its prefix cache (issue 12, R-H2): DeepSeek
   * `prompt_cache_hit_tokens`, OpenAI `prompt_tokens_details.cached_tokens`, Anthropic
   * `cache_read_input_tokens` (its `input_tokens` excludes them: add them to `promptTokens`). 0 when
   * the provider says nothing.
   */
  cacheHitTokens: number;
}

/** One model answer: the assistant message to append and what it cost. */
export interface ModelReply {
  message: AssistantMessage;
  usage: ModelUsage;
  /**
   * The text stopped at the answer's token cap (`finish_reason: "length"`, Anthropic's
   * `max_tokens`; issue 28): the message is kept and the model is asked once to go on. A tool call
   * cut there is never a reply (`TruncatedAnswerError`).
   */
  cutAtLimit?: true;
}
