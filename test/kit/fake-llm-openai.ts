import type { RecordedRequest } from './fake-llm.ts';
import type { FakeDialectRules, ProviderError } from './fake-llm-dialect.ts';
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
