import type { RecordedRequest } from './fake-llm-request.ts';
import { fakeTokens, promptText } from './fake-llm-tokens.ts';

/**
 * The fake model's context window (issue 12 "What it must show": a context window, small in
 * tests → 400 past it). It judges on its own, not with the product's estimator: a request's
 * tokens are its characters ÷ 4 (OpenAI's rule of thumb; lower than the product's 0.3 a
 * character, so the product must stay under it by its own count). Past the window it answers as
 * the providers do: DeepSeek 400 `invalid_request_error` "This model's maximum context length is N
 * tokens. However, you requested M tokens (…)", or OpenAI's `context_length_exceeded`.
 */
export interface FakeWindow {
  tokens: number;
  style?: 'deepseek' | 'openai';
}

/** The prompt tokens of a request as the fake counts them (the same count its usage reports). */
export const fakePromptTokens = (req: RecordedRequest): number => fakeTokens(promptText(req));

/** The 400 body for a request past the window, or undefined when it fits. */
export function windowRefusal(req: RecordedRequest, window: FakeWindow | undefined): object | undefined {
  if (!window) return undefined;
  const used = fakePromptTokens(req);
  if (used <= window.tokens) return undefined;
  const max = `This model's maximum context length is ${window.tokens} tokens.`;
  if (window.style === 'openai') {
    return {
      error: {
        message: `${max} However, your messages resulted in ${used} tokens. Please reduce the length of the messages.`,
        type: 'invalid_request_error',
        param: 'messages',
        code: 'context_length_exceeded',
      },
    };
  }
  return {
    error: {
      message: `${max} However, you requested ${used} tokens (${used} in the messages, 0 in the completion). Please reduce the length of the messages or completion.`,
      type: 'invalid_request_error',
      param: null,
      code: 'invalid_request_error',
    },
  };
}
