import { createHmac, randomBytes } from 'node:crypto';
import type { Refusal } from './fake-anthropic-rules.ts';

/**
 * Extended thinking as the Messages API has it (docs "Extended thinking", "Adaptive thinking"):
 * Claude ≤ 4.5 takes only the budget form (`type: enabled` with `budget_tokens` ≥ 1,024 and under
 * `max_tokens`); 4.6 takes both; the newest take only `adaptive`, refuse `enabled` and `disabled`,
 * and think when `thinking` is unset. A thinking block carries a signature over its text; sent
 * back modified it is refused, and a tool-use turn that was answered with thinking must open with
 * that thinking when it is continued.
 */
export type ThinkingSupport = 'budget' | 'both' | 'adaptive-only';

/**
 * The models the fake serves, as of 2026-12-01: the current line (Opus 5, Sonnet 5, Haiku 4.5)
 * and the 4.x models not yet retired. `claude-sonnet-4-5` reached its end of life on 2026-11-30
 * (the SDK's own deprecation table says so) and is refused like any retired name, with a 404.
 */
export const MODEL_THINKING: Record<string, ThinkingSupport> = {
  'claude-haiku-4-5': 'budget',
  'claude-opus-4-5': 'budget',
  'claude-sonnet-4-6': 'both',
  'claude-opus-4-7': 'adaptive-only',
  'claude-sonnet-5': 'adaptive-only',
  'claude-opus-5': 'adaptive-only',
};

const DOCS =
  'Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking';
const bad = (message: string): Refusal => ({ status: 400, type: 'invalid_request_error', message });
const SECRET = randomBytes(16);
export const signThinking = (text: string): string =>
  createHmac('sha256', SECRET).update(text).digest('base64');

/** Whether the request thinks, or the refusal its thinking fields earn. */
export function thinkingOf(
  body: Record<string, unknown>,
  support: ThinkingSupport,
): { on: boolean } | Refusal {
  const t = body.thinking as { type?: string; budget_tokens?: number } | undefined;
  const adaptiveOnly = (type: string) =>
    bad(
      `"thinking.type.${type}" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.`,
    );
  let on: boolean;
  if (t === undefined) on = support === 'adaptive-only';
  else if (t.type === 'disabled') {
    if (support === 'adaptive-only') return adaptiveOnly('disabled');
    on = false;
  } else if (t.type === 'enabled') {
    if (support === 'adaptive-only') return adaptiveOnly('enabled');
    const budget = t.budget_tokens;
    if (!Number.isInteger(budget) || (budget as number) < 1024)
      return bad('thinking.enabled.budget_tokens: Input should be greater than or equal to 1024');
    if ((budget as number) >= (body.max_tokens as number))
      return bad(`\`max_tokens\` must be greater than \`thinking.budget_tokens\`. ${DOCS}`);
    on = true;
  } else if (t.type === 'adaptive') {
    if (support === 'budget') return bad('thinking.type: adaptive thinking is not supported on this model');
    on = true;
  } else
    return bad(
      `thinking.type: Input tag '${String(t.type)}' found using 'type' does not match any of the expected tags`,
    );
  if (on && body.temperature !== undefined && body.temperature !== 1)
    return bad(`\`temperature\` may only be set to 1 when thinking is enabled or in adaptive mode. ${DOCS}`);
  return { on };
}

type Block = Record<string, unknown>;

/**
 * Every thinking block sent back is one the fake signed, unmodified; the last assistant turn, if
 * its tool calls were answered with thinking (`thoughtful`), opens with a thinking block.
 */
export function checkThinkingBlocks(
  messages: { role: string; content: string | Block[] }[],
  thoughtful: ReadonlySet<string>,
): Refusal | undefined {
  let lastAssistant = -1;
  for (const [i, m] of messages.entries()) {
    if (m.role !== 'assistant' || typeof m.content === 'string') continue;
    lastAssistant = i;
    for (const [j, b] of m.content.entries()) {
      if (b.type === 'thinking' && b.signature !== signThinking(String(b.thinking)))
        return bad(`messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`);
      if (b.type === 'redacted_thinking' && !String(b.data).startsWith('redacted:'))
        return bad(`messages.${i}.content.${j}: Invalid \`data\` in \`redacted_thinking\` block`);
    }
  }
  const last = messages[lastAssistant];
  if (!last || typeof last.content === 'string') return undefined;
  const calls = last.content.filter((b) => b.type === 'tool_use').map((b) => String(b.id));
  const first = last.content[0];
  if (
    !calls.some((id) => thoughtful.has(id)) ||
    first?.type === 'thinking' ||
    first?.type === 'redacted_thinking'
  )
    return undefined;
  return bad(
    `messages.${lastAssistant}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${String(first?.type)}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. ${DOCS}`,
  );
}
