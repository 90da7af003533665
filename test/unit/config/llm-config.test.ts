import { describe, expect, it } from 'vitest';
import { loadConfig, providerOfBaseUrl } from '../../../src/config.ts';
import { chatContract, createModelForConfig } from '../../../src/session/create-model-for-config.ts';

describe('model configuration (issue 12, R-H1)', () => {
  it('defaults to DeepSeek’s current model and provider, never a retired name', () => {
    const c = loadConfig({});
    expect(c.LLM_MODEL).toBe('deepseek-flash');
    expect(c.mainModel).toBe('deepseek-flash');
    expect(c.executorModel).toBe('deepseek-flash');
    expect(c.llmProvider).toBe('deepseek');
    expect(JSON.stringify(c)).not.toMatch(/deepseek-(chat|reasoner)/);
  });

  it('derives the provider from the base URL unless LLM_PROVIDER says otherwise', () => {
    expect(providerOfBaseUrl('https://api.deepseek.com')).toBe('deepseek');
    expect(providerOfBaseUrl('https://api.deepseek.com/v1')).toBe('deepseek');
    expect(providerOfBaseUrl('https://api.openai.com/v1')).toBe('openai');
    expect(providerOfBaseUrl('https://api.anthropic.com')).toBe('anthropic');
    expect(providerOfBaseUrl('http://127.0.0.1:8000/v1')).toBe('compatible');
    expect(providerOfBaseUrl('https://api.deepseek.com.evil.example')).toBe('compatible');
    expect(loadConfig({ LLM_BASE_URL: 'http://gw.local/v1', LLM_PROVIDER: 'deepseek' }).llmProvider).toBe(
      'deepseek',
    );
  });

  it('thinking defaults: the main session off, executors on with effort high', () => {
    const c = loadConfig({});
    expect(chatContract(c, 'main')).toEqual({
      provider: 'deepseek',
      thinking: 'disabled',
      reasoningEffort: 'high',
    });
    expect(chatContract(c, 'executor')).toEqual({
      provider: 'deepseek',
      thinking: 'enabled',
      reasoningEffort: 'high',
    });
    const tuned = loadConfig({ MAIN_THINKING: 'enabled', EXECUTOR_REASONING_EFFORT: 'max' });
    expect(chatContract(tuned, 'main').thinking).toBe('enabled');
    expect(chatContract(tuned, 'executor').reasoningEffort).toBe('max');
  });

  it('other providers get no DeepSeek settings', () => {
    expect(chatContract(loadConfig({ LLM_BASE_URL: 'https://api.openai.com/v1' }), 'executor')).toEqual({
      provider: 'openai',
    });
    expect(chatContract(loadConfig({ LLM_BASE_URL: 'http://127.0.0.1:1/v1' }), 'main')).toEqual({
      provider: 'compatible',
    });
  });

  it('bad values stop start-up with one message naming each variable', () => {
    expect(() =>
      loadConfig({ LLM_PROVIDER: 'bedrock', EXECUTOR_THINKING: 'on', MAIN_REASONING_EFFORT: 'low' }),
    ).toThrow(
      /LLM_PROVIDER: one of deepseek, openai, compatible, anthropic.*EXECUTOR_THINKING: enabled or disabled.*MAIN_REASONING_EFFORT: high or max/,
    );
  });

  it('LLM_PROVIDER=anthropic builds the Messages API client for each session kind; LLM_MAX_TOKENS is checked', () => {
    const c = loadConfig({ LLM_PROVIDER: 'anthropic', LLM_API_KEY: 'k', LLM_MODEL: 'claude-haiku-4-5' });
    expect(c.LLM_MAX_TOKENS).toBe(32_768);
    expect(createModelForConfig(c, 'main').model).toBe('claude-haiku-4-5');
    expect(() => loadConfig({ LLM_MAX_TOKENS: '0' })).toThrow(/LLM_MAX_TOKENS/);
  });
});
