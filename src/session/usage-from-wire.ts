import type { ModelUsage } from './model-reply.ts';

/** A Chat Completions `usage` object as OpenAI and DeepSeek send it (only the fields read here). */
export interface WireUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  /** DeepSeek context caching. */
  prompt_cache_hit_tokens?: number;
  /** OpenAI prompt caching. */
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
}

/** Our usage from the provider's: cache hits from whichever field the provider fills (issue 12). */
export function usageFromWire(u: WireUsage | null | undefined): ModelUsage {
  return {
    promptTokens: u?.prompt_tokens ?? 0,
    completionTokens: u?.completion_tokens ?? 0,
    cacheHitTokens: u?.prompt_cache_hit_tokens ?? u?.prompt_tokens_details?.cached_tokens ?? 0,
  };
}
