/** The session's lifetime model usage, as fields of the transcript's meta hash (`transcript-store.ts` writes and reads them). */
export const USAGE_FIELDS = {
  requests: 'usage:requests',
  promptTokens: 'usage:prompt',
  completionTokens: 'usage:completion',
  cacheHitTokens: 'usage:cache_hit',
} as const;

/** What a session's model requests have cost over its life (issue 12: prompt-cache economy). */
export interface SessionUsage {
  requests: number;
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens the provider served from its prefix cache. */
  cacheHitTokens: number;
}

export const USAGE_KEYS = Object.keys(USAGE_FIELDS) as (keyof typeof USAGE_FIELDS)[];

export const noUsage = (): SessionUsage => ({
  requests: 0,
  promptTokens: 0,
  completionTokens: 0,
  cacheHitTokens: 0,
});
