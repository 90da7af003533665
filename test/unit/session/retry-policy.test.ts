import { APIConnectionTimeoutError, APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import { MalformedToolCallError } from '../../../src/session/errors/malformed-tool-call-error.ts';
import { retryDelay } from '../../../src/session/retry-policy.ts';

const policy = { attempts: 3, baseDelayMs: 100, maxDelayMs: 5000 };
const apiError = (status: number, headers: Record<string, string> = {}) =>
  APIError.generate(status, { message: 'x' }, 'x', new Headers(headers));

describe('retryDelay', () => {
  it('5xx, time-outs and malformed tool calls are retried with growing back-off', () => {
    const first = retryDelay(apiError(500), 1, policy);
    const second = retryDelay(apiError(503), 2, policy);
    expect(first).toBeGreaterThanOrEqual(80);
    expect(first).toBeLessThanOrEqual(120);
    expect(second).toBeGreaterThanOrEqual(160);
    expect(retryDelay(new APIConnectionTimeoutError(), 1, policy)).toBeGreaterThan(0);
    expect(retryDelay(new MalformedToolCallError('reply', '{"to":'), 1, policy)).toBeGreaterThan(0);
  });

  it('a 429 waits what Retry-After says, capped by the policy', () => {
    expect(retryDelay(apiError(429, { 'retry-after': '2' }), 1, policy)).toBe(2000);
    expect(retryDelay(apiError(429, { 'retry-after': '60' }), 1, policy)).toBe(5000);
  });

  it('client errors are not retried, and nothing is after the last attempt', () => {
    expect(retryDelay(apiError(400), 1, policy)).toBe(undefined);
    expect(retryDelay(apiError(401), 1, policy)).toBe(undefined);
    expect(retryDelay(new Error('bug'), 1, policy)).toBe(undefined);
    expect(retryDelay(apiError(500), 3, policy)).toBe(undefined);
  });
});
