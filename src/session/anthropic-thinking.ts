import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages/messages';

/** A session kind's thinking settings (`MAIN_THINKING` / `EXECUTOR_THINKING` and their effort). */
export interface AnthropicThinking {
  thinking: 'enabled' | 'disabled';
  effort: 'high' | 'max';
}

/** `claude-haiku-4-5` → [4, 5]; `claude-sonnet-5` → [5, 0]; `claude-3-7-sonnet-20250219` → [3, 7]; a date is no version. */
export function claudeVersion(model: string): [number, number] | undefined {
  const nums = model
    .toLowerCase()
    .replace(/^.*\//, '')
    .split(/[-.@]/)
    .filter((t) => /^\d{1,2}$/.test(t))
    .map(Number);
  return nums[0] === undefined ? undefined : [nums[0], nums[1] ?? 0];
}

/** Adaptive thinking came with Claude 4.6; the Claude 5 family refuses the budget form. */
export const takesAdaptive = (model: string): boolean => {
  const v = claudeVersion(model);
  return !!v && (v[0] > 4 || (v[0] === 4 && v[1] >= 6));
};

type ThinkingParams = Pick<MessageCreateParamsNonStreaming, 'thinking' | 'output_config'>;

/**
 * The request fields for a session kind's thinking (R-H1). Enabled: `adaptive` (with
 * `output_config.effort: max` for `max`; `high` is the API's default) on models that take it, else
 * the budget form, `budget_tokens` at least 1,024 and under `max_tokens` (half of it for `high`,
 * all but 1,024 for `max`). Disabled: nothing is sent, so the model's default holds — newer
 * models refuse `type: disabled` and think by default, which is why their thinking blocks are
 * kept and sent back either way (`anthropic-reply.ts`).
 */
export function thinkingParams(
  model: string,
  maxTokens: number,
  t: AnthropicThinking | undefined,
): ThinkingParams {
  if (!t || t.thinking === 'disabled') return {};
  if (takesAdaptive(model))
    return {
      thinking: { type: 'adaptive' },
      ...(t.effort === 'max' ? { output_config: { effort: 'max' } } : {}),
    };
  if (maxTokens < 2048) return {}; // no budget fits under max_tokens
  const budget = t.effort === 'max' ? maxTokens - 1024 : Math.max(1024, Math.floor(maxTokens / 2));
  return { thinking: { type: 'enabled', budget_tokens: budget } };
}
