/** The Chat Completions dialects the model client speaks (`anthropic` has its own client). */
export type ChatProvider = 'deepseek' | 'openai' | 'compatible';

/**
 * What a session's requests say beyond the common Chat Completions fields (R-H1). `thinking` and
 * `reasoningEffort` are DeepSeek's (its "Thinking Mode" guide): other providers never see them.
 */
export interface ChatContract {
  provider: ChatProvider;
  /** DeepSeek's `thinking.type`; DeepSeek itself defaults to `enabled` when it is absent. */
  thinking?: 'enabled' | 'disabled';
  /** DeepSeek's `reasoning_effort`, sent only with thinking on. */
  reasoningEffort?: 'high' | 'max';
}

/** Whether the model thinks on these requests: DeepSeek does unless told `disabled`. */
export const thinkingOn = (c: ChatContract): boolean =>
  c.provider === 'deepseek' && c.thinking !== 'disabled';
