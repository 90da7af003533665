import type { FakeDialectRules, ProviderError } from './fake-llm-dialect.ts';
import type { RecordedRequest } from './fake-llm-request.ts';
import { createPrefixCache } from './fake-llm-tokens.ts';

/** Request fields OpenAI's Chat Completions does not know; it answers 400 naming the first. */
const UNKNOWN_TO_OPENAI = ['thinking'] as const;

/**
 * The fake as OpenAI's Chat Completions: no reasoning in answers, DeepSeek's `thinking` field
 * refused, cache hits in `prompt_tokens_details.cached_tokens`.
 */
export function openaiDialect(): FakeDialectRules {
  const cache = createPrefixCache();
  return {
    refuse(req: RecordedRequest): ProviderError | undefined {
      // Its reasoning models refuse the old cap's name outright (issue 28).
      if ('max_tokens' in req.body)
        return {
          status: 400,
          body: {
            error: {
              message:
                "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
              type: 'invalid_request_error',
              param: 'max_tokens',
              code: 'unsupported_parameter',
            },
          },
        };
      const limit = outputLimit(req);
      if (limit) return limit;
      const picture = imageRefusal(req);
      if (picture) return picture;
      const unknown = UNKNOWN_TO_OPENAI.find((f) => f in req.body);
      if (!unknown) return undefined;
      return {
        status: 400,
        body: {
          error: {
            message: `Unrecognized request argument supplied: ${unknown}`,
            type: 'invalid_request_error',
            param: null,
            code: null,
          },
        },
      };
    },
    reasoning: (_req: RecordedRequest, _scripted: string | undefined): string | undefined => undefined,
    usage(req: RecordedRequest, scripted: { prompt_tokens?: number; completion_tokens?: number } = {}) {
      const measured = cache.measure(req);
      const prompt = scripted.prompt_tokens ?? measured.promptTokens;
      const completion = scripted.completion_tokens ?? 5;
      return {
        prompt_tokens: prompt,
        completion_tokens: completion,
        total_tokens: prompt + completion,
        prompt_tokens_details: { cached_tokens: Math.min(measured.cacheHitTokens, prompt) },
      };
    },
    ignored: (_req: RecordedRequest): string[] => [],
  };
}

/** Models that read pictures (OpenAI's model pages): GPT-4o, GPT-4.1, GPT-5 and the o-series. */
const VISION = /^(gpt-4o|chatgpt-4o|gpt-4\.1|gpt-5|o1|o3|o4)(-|$)/;

/**
 * OpenAI's 400s for pictures: an `image_url` part in a message that is not the user's, or sent
 * to a model that reads no pictures. `param` points at the part, as the API's does.
 */
function imageRefusal(req: RecordedRequest): ProviderError | undefined {
  const messages = (req.body.messages ?? []) as { role?: unknown; content?: unknown }[];
  for (const [i, m] of messages.entries()) {
    if (!Array.isArray(m.content)) continue;
    const j = m.content.findIndex((p) => (p as { type?: unknown }).type === 'image_url');
    if (j < 0) continue;
    const message =
      m.role !== 'user'
        ? `Image URLs are only allowed for messages with role 'user', but this message with role '${String(m.role)}' contains an image URL.`
        : VISION.test(req.model)
          ? undefined
          : 'Invalid content type. image_url is only supported by certain models.';
    if (!message) continue;
    return {
      status: 400,
      body: {
        error: {
          message,
          type: 'invalid_request_error',
          param: `messages.[${i}].content.[${j}].type`,
          code: null,
        },
      },
    };
  }
  return undefined;
}

/** Output token limits of OpenAI models that have a small one (their model pages), by name prefix. */
const OUTPUT_LIMITS: [RegExp, number][] = [
  [/^(gpt-4o|chatgpt-4o)(-|$)/, 16_384],
  [/^gpt-4\.1(-|$)/, 32_768],
];

/** A cap above the model's output limit: OpenAI's 400 naming both numbers. */
function outputLimit(req: RecordedRequest): ProviderError | undefined {
  const asked = req.body.max_completion_tokens;
  const limit = OUTPUT_LIMITS.find(([re]) => re.test(String(req.body.model)))?.[1];
  if (typeof asked !== 'number' || limit === undefined || asked <= limit) return undefined;
  return {
    status: 400,
    body: {
      error: {
        message: `max_tokens is too large: ${asked}. This model supports at most ${limit} completion tokens, whereas you provided ${asked}.`,
        type: 'invalid_request_error',
        param: 'max_tokens',
        code: 'invalid_value',
      },
    },
  };
}
