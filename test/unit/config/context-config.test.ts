import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.ts';

describe('context window configuration (issue 12, R-H2)', () => {
  it('R-H2: each session kind gets its model’s known window unless LLM_CONTEXT_TOKENS or its own variable says otherwise', () => {
    expect(loadConfig({}).executorContextTokens).toBe(131_072); // deepseek-flash's 1M, capped to the working window
    expect(loadConfig({ LLM_MODEL: 'gpt-4o' }).executorContextTokens).toBe(128_000);
    const mixed = loadConfig({ MAIN_MODEL: 'gpt-4o', EXECUTOR_MODEL: 'my-local-model' });
    expect(mixed.mainContextTokens).toBe(128_000);
    expect(mixed.executorContextTokens).toBe(128_000);
    const set = loadConfig({ LLM_CONTEXT_TOKENS: '64000', EXECUTOR_CONTEXT_TOKENS: '32000' });
    expect(set.mainContextTokens).toBe(64_000);
    expect(set.executorContextTokens).toBe(32_000);
  });

  it('R-H2: a window too small to hold a prompt, or not a number, stops start-up naming the variable', () => {
    expect(() => loadConfig({ LLM_CONTEXT_TOKENS: '1000' })).toThrow(ConfigError);
    expect(() => loadConfig({ LLM_CONTEXT_TOKENS: '1000' })).toThrow(/LLM_CONTEXT_TOKENS/);
    expect(() => loadConfig({ EXECUTOR_CONTEXT_TOKENS: 'lots' })).toThrow(/EXECUTOR_CONTEXT_TOKENS/);
  });
});
