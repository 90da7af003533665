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
 *
 * `quick` (the executor's acknowledgement, a compaction's summary; issue 48 item 7): the same
 * thinking configuration — a tool-use loop keeps one from its first request to its last, so
 * switching thinking off for one request is not an option — asked to think as little as it
 * allows: `output_config.effort: low` where the model takes effort (adaptive thinking skips
 * thinking on simple steps at low effort, and the newest models think by default), else the
 * smallest budget the API takes (1,024 tokens).
 */
export function thinkingParams(
  model: string,
  maxTokens: number,
  t: AnthropicThinking | undefined,
  quick = false,
): ThinkingParams {
  const on = !!t && t.thinking !== 'disabled';
  if (takesAdaptive(model)) {
    if (quick) return { ...(on ? { thinking: { type: 'adaptive' } } : {}), output_config: { effort: 'low' } };
    if (!on) return {};
    return {
      thinking: { type: 'adaptive' },
      ...(t?.effort === 'max' ? { output_config: { effort: 'max' } } : {}),
    };
  }
  if (!on || maxTokens < 2048) return {}; // disabled, or no budget fits under max_tokens
  const budget = quick
    ? MIN_BUDGET
    : t?.effort === 'max'
      ? maxTokens - MIN_BUDGET
      : Math.max(MIN_BUDGET, Math.floor(maxTokens / 2));
  return { thinking: { type: 'enabled', budget_tokens: budget } };
}

/** The smallest thinking budget the Messages API takes. */
const MIN_BUDGET = 1024;
