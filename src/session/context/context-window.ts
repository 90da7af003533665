/**
 * Context windows of models we know, in tokens (R-H2; `LLM_CONTEXT_TOKENS` overrides). DeepSeek's
 * "Models & Pricing" page gives deepseek-flash and deepseek-v4-pro a 1M context (the retired names
 * are not listed: DeepSeek refuses them, and anything unknown gets 128K). Matched by prefix, so
 * dated snapshots (`gpt-4o-2024-08-06`, `claude-sonnet-4-5-20250929`) find their family.
 */
const KNOWN: [prefix: string, tokens: number][] = [
  ['deepseek-flash', 1_000_000],
  ['deepseek-v4', 1_000_000],
  ['gpt-4.1', 1_047_576],
  ['gpt-4o', 128_000],
  ['gpt-5', 400_000],
  ['o3', 200_000],
  ['o4', 200_000],
  ['claude-', 200_000],
];

/**
 * For a model we do not know: the window of most current mid-size models. A smaller one answers
 * a context-length 400 the first time; the turn then compacts to the size that error names.
 */
export const UNKNOWN_MODEL_CONTEXT_TOKENS = 128_000;

/** The context window of `model`: the longest known prefix wins. */
export function contextWindowFor(model: string): number {
  const name = model.toLowerCase().replace(/^.*\//, '');
  let best: [string, number] | undefined;
  for (const entry of KNOWN) {
    if (name.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  }
  return best?.[1] ?? UNKNOWN_MODEL_CONTEXT_TOKENS;
}

/**
 * The window a session works in when `LLM_CONTEXT_TOKENS` is not set: the model's own, but no
 * more than 128K. A 1M-token model would otherwise send up to ~750K prompt tokens per step before
 * its first compaction: cached or not, that is billed, and a turn's token budget (`maxTokens`,
 * 2M, counting every prompt token) would stop the turn after three such steps instead of letting
 * it compact. Set `LLM_CONTEXT_TOKENS` to use more of a large window.
 */
export const DEFAULT_WORKING_WINDOW = 131_072;

/** The default window of `model` (see `DEFAULT_WORKING_WINDOW`). */
export const defaultContextTokens = (model: string): number =>
  Math.min(contextWindowFor(model), DEFAULT_WORKING_WINDOW);
