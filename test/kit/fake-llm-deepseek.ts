import type { FakeDialectRules, ProviderError } from './fake-llm-dialect.ts';
import type { RecordedMessage, RecordedRequest } from './fake-llm-request.ts';
import { createPrefixCache } from './fake-llm-tokens.ts';

/**
 * DeepSeek's documented contract, as the fake model enforces it (issue 12). Sources: the API docs'
 * "Models & Pricing" (current names), "Thinking Mode" and "Context Caching" guides, and the error
 * bodies DeepSeek answers (`{ error: { message, type, param, code } }`).
 */

/** Names DeepSeek serves today: `deepseek-flash`; the V4 names still answer, served by Flash. */
export const DEEPSEEK_MODELS = [
  'deepseek-flash',
  'deepseek-v4-flash',
  'deepseek-v4-pro',
  'deepseek-v4-flash-vision-exp',
] as const;

/** The one model that reads pictures (the API docs' "Vision" guide); the others are text only. */
export const DEEPSEEK_VISION_MODELS: readonly string[] = ['deepseek-v4-flash-vision-exp'];

/** Retired on 2026-07-24: every request naming them fails. */
export const RETIRED_DEEPSEEK_MODELS = ['deepseek-chat', 'deepseek-reasoner'] as const;

/** Sampling fields thinking mode ignores without an error ("for compatibility with existing software"). */
export const IGNORED_WHEN_THINKING = [
  'temperature',
  'top_p',
  'presence_penalty',
  'frequency_penalty',
] as const;

export const MISSING_REASONING =
  'The `reasoning_content` in the thinking mode must be passed back to the API.';

const invalid = (message: string): ProviderError => ({
  status: 400,
  body: { error: { message, type: 'invalid_request_error', param: null, code: 'invalid_request_error' } },
});

/**
 * A tool-call message sent without its reasoning. An empty string counts as none: the docs only say
 * "must be passed back", and clients report `deepseek-v4-pro` refusing `""` with the same 400
 * (hermes-agent #18263, LiteLLM #28057) though Flash took it (pi #3659); one space passes both.
 */
function lacksReasoning(m: RecordedMessage): boolean {
  return m.role === 'assistant' && !!m.tool_calls?.length && (m.reasoning_content ?? '') === '';
}

/** Thinking is on unless the body says `thinking: { type: "disabled" }` (DeepSeek's default is on). */
export function thinkingOf(req: RecordedRequest): boolean {
  const t = req.body.thinking as { type?: unknown } | undefined;
  return t?.type !== 'disabled';
}

/** What DeepSeek answers 400 to, in the order it checks; undefined when the request is acceptable. */
export function deepseekRefusal(req: RecordedRequest): ProviderError | undefined {
  if (!(DEEPSEEK_MODELS as readonly string[]).includes(req.model)) return invalid('Model Not Exist');
  const picture = DEEPSEEK_VISION_MODELS.includes(req.model) ? undefined : imagePartAt(req);
  if (picture) return invalid(picture);
  const cap = req.body.max_tokens;
  if (cap !== undefined && !(Number.isInteger(cap) && (cap as number) >= 1))
    return invalid('Invalid max_tokens value, max_tokens must be a positive integer');
  // Between two user messages, an assistant message that called tools must keep its reasoning in
  // every later request with thinking on; on the others it is optional (and ignored). The switch
  // itself is per request: a conversation may turn thinking off for one request (no rule forbids
  // it), but a tool-call answer made then still needs reasoning once thinking is back on.
  if (thinkingOf(req) && req.messages.some(lacksReasoning)) return invalid(MISSING_REASONING);
  return undefined;
}

/** The fake's DeepSeek: its refusals, its reasoning, and usage with the context-cache fields. */
export function deepseekDialect(): FakeDialectRules {
  const cache = createPrefixCache();
  return {
    refuse: deepseekRefusal,
    /** Thinking on: the answer carries `reasoning_content` (scripted, or a short default). */
    reasoning(req: RecordedRequest, scripted: string | undefined): string | undefined {
      if (!thinkingOf(req)) return undefined;
      return scripted ?? `Thinking about the ${req.messages.length} messages so far.`;
    },
    usage(req: RecordedRequest, scripted: { prompt_tokens?: number; completion_tokens?: number } = {}) {
      const measured = cache.measure(req);
      const prompt = scripted.prompt_tokens ?? measured.promptTokens;
      const hit = Math.min(measured.cacheHitTokens, prompt);
      const completion = scripted.completion_tokens ?? 5;
      return {
        prompt_tokens: prompt,
        completion_tokens: completion,
        total_tokens: prompt + completion,
        prompt_cache_hit_tokens: hit,
        prompt_cache_miss_tokens: prompt - hit,
      };
    },
    /** Fields sent that this request ignores (thinking mode's sampling fields), for tests to see. */
    ignored(req: RecordedRequest): string[] {
      return thinkingOf(req) ? IGNORED_WHEN_THINKING.filter((f) => f in req.body) : [];
    },
  };
}

/**
 * A text-only model's answer to an `image_url` part: its request parser knows only text parts, so
 * the body fails to deserialize (the 400 reported for `deepseek-flash` and its predecessors):
 * `messages[N]: unknown variant \`image_url\`, expected \`text\` at line 1 column C`.
 */
function imagePartAt(req: RecordedRequest): string | undefined {
  const messages = (req.body.messages ?? []) as { content?: unknown }[];
  const n = messages.findIndex(
    (m) => Array.isArray(m.content) && m.content.some((p) => (p as { type?: unknown }).type === 'image_url'),
  );
  if (n < 0) return undefined;
  const column = JSON.stringify(req.body).indexOf('"image_url"') + 1;
  return `Failed to deserialize the JSON body into the target type: messages[${n}]: unknown variant \`image_url\`, expected \`text\` at line 1 column ${column}`;
}
