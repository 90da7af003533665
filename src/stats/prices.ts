/**
 * Issue 33 item 5: public list prices, USD per million tokens, read on 2026-12-02 from
 *  - DeepSeek: https://api-docs.deepseek.com/quick_start/pricing (as checked 2026-11-15): peak
 *    hours 01:00–04:00 and 06:00–10:00 UTC cost twice the off-peak rates;
 *  - Anthropic: https://platform.claude.com/docs/en/about-claude/pricing ("cache hits and
 *    refreshes"; 5-minute cache writes are 1.25 × input);
 *  - OpenAI: the API pricing page as summarised by third parties (June 2026) — check before budgeting.
 * `LLM_PRICES` (JSON, same shape) overrides or adds entries (docs/configuration.md).
 */
export const PRICES_READ_ON = '2026-12-02';

/** Rates for one kind of token, USD per million. */
export interface Rates {
  /** Prompt tokens not served from the provider's cache. */
  input: number;
  /** Prompt tokens served from the cache (DeepSeek `prompt_cache_hit_tokens`, OpenAI `cached_tokens`, Anthropic cache reads). */
  cacheHit: number;
  output: number;
  /** Prompt tokens written to the cache (Anthropic only); unset: priced as `input`. */
  cacheWrite?: number;
}

/** One model's price: its rates, and optionally other rates in some UTC hours (DeepSeek's peak). */
export interface Price extends Rates {
  peak?: Rates & { hoursUtc: [number, number][] };
}

/** Provider → model → price. A model name matches exactly, or by its longest listed prefix. */
export type PriceTable = Record<string, Record<string, Price>>;

const DEEPSEEK_PEAK_HOURS: [number, number][] = [
  [1, 4],
  [6, 10],
];

const deepseek = (offPeak: Rates, peak: Rates): Price => ({
  ...offPeak,
  peak: { ...peak, hoursUtc: DEEPSEEK_PEAK_HOURS },
});

const anthropic = (input: number, cacheHit: number, output: number): Price => ({
  input,
  cacheHit,
  output,
  cacheWrite: input * 1.25,
});

export const PRICES: PriceTable = {
  deepseek: {
    'deepseek-flash': deepseek(
      { input: 0.15, cacheHit: 0.003, output: 0.6 },
      { input: 0.3, cacheHit: 0.006, output: 1.2 },
    ),
    // Retired names still accepted and served by the Flash model at its rates.
    'deepseek-v4-flash': deepseek(
      { input: 0.15, cacheHit: 0.003, output: 0.6 },
      { input: 0.3, cacheHit: 0.006, output: 1.2 },
    ),
    'deepseek-v4-pro': deepseek(
      { input: 0.66, cacheHit: 0.022, output: 1.98 },
      { input: 1.32, cacheHit: 0.044, output: 3.96 },
    ),
  },
  anthropic: {
    'claude-fable-5-1': anthropic(10, 0.25, 50),
    'claude-fable-5': anthropic(10, 1, 50),
    'claude-opus-5': anthropic(5, 0.5, 25),
    'claude-opus-4-8': anthropic(5, 0.5, 25),
    'claude-opus-4-7': anthropic(5, 0.5, 25),
    'claude-opus-4-6': anthropic(5, 0.5, 25),
    'claude-opus-4-5': anthropic(5, 0.5, 25),
    'claude-opus-4-1': anthropic(15, 1.5, 75),
    'claude-sonnet-4': anthropic(3, 0.3, 15),
    'claude-haiku-4-5': anthropic(1, 0.1, 5),
  },
  openai: {
    'gpt-5.5': { input: 5, cacheHit: 0.5, output: 30 },
    'gpt-5.4': { input: 2.5, cacheHit: 0.25, output: 15 },
    'gpt-5.4-mini': { input: 0.75, cacheHit: 0.075, output: 4.5 },
    'gpt-5.4-nano': { input: 0.2, cacheHit: 0.02, output: 1.25 },
  },
};
