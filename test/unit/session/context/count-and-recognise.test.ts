import { APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import { contextOverflow } from '../../../../src/session/context/context-overflow.ts';
import {
  contextWindowFor,
  UNKNOWN_MODEL_CONTEXT_TOKENS,
} from '../../../../src/session/context/context-window.ts';
import {
  calibrate,
  estimateRequestTokens,
  estimateTextTokens,
} from '../../../../src/session/context/count-tokens.ts';

const apiError = (status: number, body: Record<string, unknown>) =>
  APIError.generate(status, { error: body }, undefined, new Headers());

describe('token estimate (R-H2)', () => {
  it('R-H2: counts English at 0.3 and Chinese at 0.6 tokens a character (DeepSeek’s documented ratios)', () => {
    expect(estimateTextTokens('a'.repeat(1000))).toBe(300);
    expect(estimateTextTokens('中'.repeat(1000))).toBe(600);
    expect(estimateTextTokens('é'.repeat(10))).toBe(10);
  });

  it('R-H2: a request counts its system prompt, tool schemas and every message field', () => {
    const base = { system: 'x'.repeat(1000), messages: [], tools: [] };
    const withTools = {
      ...base,
      tools: [{ type: 'function', function: { name: 'read_file', description: 'd'.repeat(1000) } }],
    };
    const withReasoning = {
      ...base,
      messages: [{ role: 'assistant', content: null, reasoning_content: 'r'.repeat(1000) } as never],
    };
    expect(estimateRequestTokens(base)).toBeGreaterThanOrEqual(300);
    expect(estimateRequestTokens(withTools) - estimateRequestTokens(base)).toBeGreaterThanOrEqual(300);
    expect(estimateRequestTokens(withReasoning) - estimateRequestTokens(base)).toBeGreaterThanOrEqual(300);
  });

  it('R-H2: the provider’s count raises the estimate, never lowers it, and a nonsense figure is capped', () => {
    expect(calibrate(1, 1000, 1500)).toBe(1.5);
    expect(calibrate(1.5, 1000, 10)).toBe(1.5);
    expect(calibrate(1, 1000, 1_000_000)).toBe(4);
    expect(calibrate(1.2, 1000, undefined)).toBe(1.2);
  });
});

describe('context windows', () => {
  it('R-H2: known models get their documented window, dated snapshots their family’s, others a default', () => {
    expect(contextWindowFor('deepseek-flash')).toBe(1_000_000);
    expect(contextWindowFor('deepseek-v4-pro')).toBe(1_000_000);
    expect(contextWindowFor('deepseek-chat')).toBe(UNKNOWN_MODEL_CONTEXT_TOKENS); // retired: not a known model
    expect(contextWindowFor('gpt-4o-2024-08-06')).toBe(128_000);
    expect(contextWindowFor('openai/gpt-4.1-mini')).toBe(1_047_576);
    expect(contextWindowFor('claude-sonnet-4-5-20250929')).toBe(200_000);
    expect(contextWindowFor('my-local-llama')).toBe(UNKNOWN_MODEL_CONTEXT_TOKENS);
  });
});

describe('contextOverflow', () => {
  it('R-H2: recognises DeepSeek’s, OpenAI’s and Anthropic’s context-length 400s, with the numbers they name', () => {
    const deepseek = apiError(400, {
      message:
        "This model's maximum context length is 131072 tokens. However, you requested 131134 tokens (122942 in the messages, 8192 in the completion). Please reduce the length of the messages or completion.",
      type: 'invalid_request_error',
      param: null,
      code: 'invalid_request_error',
    });
    // The completion budget counts against the window: the prompt had 131072 − 8192.
    expect(contextOverflow(deepseek)).toEqual({ limit: 122880, requested: 122942 });
    const openai = apiError(400, {
      message:
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 140004 tokens. Please reduce the length of the messages.",
      type: 'invalid_request_error',
      param: 'messages',
      code: 'context_length_exceeded',
    });
    expect(contextOverflow(openai)).toEqual({ limit: 128000, requested: 140004 });
    const bare = apiError(400, {
      message: 'too long',
      type: 'invalid_request_error',
      code: 'context_length_exceeded',
    });
    expect(contextOverflow(bare)).toEqual({});
    const anthropic = Object.assign(new Error('400 prompt is too long: 208310 tokens > 200000 maximum'), {
      status: 400,
    });
    expect(contextOverflow(anthropic)).toEqual({ limit: 200000, requested: 208310 });
  });

  it('R-H2: any other 400, and a 500 saying the same words, is not a context overflow', () => {
    expect(
      contextOverflow(apiError(400, { message: 'Model Not Exist', type: 'invalid_request_error' })),
    ).toBeUndefined();
    expect(
      contextOverflow(
        apiError(500, { message: "This model's maximum context length is 10 tokens", type: 'server_error' }),
      ),
    ).toBeUndefined();
    expect(contextOverflow(new Error('maximum context length'))).toBeUndefined();
  });
});
