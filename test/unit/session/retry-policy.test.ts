import { APIConnectionTimeoutError, APIError } from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadAnthropicSdk } from '../../../src/session/anthropic-sdk.ts';
import { MalformedToolCallError } from '../../../src/session/errors/malformed-tool-call-error.ts';
import { defaultRetryPolicy, isTransient, retryDelay } from '../../../src/session/retry-policy.ts';

const policy = { attempts: 3, baseDelayMs: 100, maxDelayMs: 5000, totalDelayMs: 60_000 };
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

  it('issue 28: retrying goes on until the waits add up to the total, a Retry-After counting like any wait', () => {
    const long = defaultRetryPolicy;
    let waited = 0;
    let attempt = 1;
    for (let d = retryDelay(apiError(503), attempt, long, waited); d !== undefined; ) {
      waited += d;
      attempt += 1;
      d = retryDelay(apiError(503), attempt, long, waited);
    }
    expect(waited).toBeGreaterThanOrEqual(60_000);
    // Waits grow to the cap: eight or nine attempts, not twenty.
    expect(attempt).toBeLessThanOrEqual(9);
    const busy = apiError(503, { 'retry-after': '30' });
    expect(retryDelay(busy, 1, long, 0)).toBe(30_000);
    expect(retryDelay(busy, 2, long, 59_999)).toBe(30_000);
    expect(retryDelay(busy, 3, long, 60_000)).toBe(undefined);
  });
});

describe('retry policy for the Anthropic SDK (issue 12, R-H1)', () => {
  // As in the product, where the SDK's errors exist once a client's first request loaded it.
  let AnthropicAPIError: Awaited<ReturnType<typeof loadAnthropicSdk>>['APIError'];
  beforeAll(async () => {
    AnthropicAPIError = (await loadAnthropicSdk()).APIError;
  });
  const anthropic = (status: number, type: string) =>
    AnthropicAPIError.generate(status, { type: 'error', error: { type, message: 'x' } }, 'x', new Headers());

  it('R-H1: 529 overloaded and 429 are retried, 400 and 404 are not', () => {
    expect(isTransient(anthropic(529, 'overloaded_error'))).toBe(true);
    expect(isTransient(anthropic(429, 'rate_limit_error'))).toBe(true);
    expect(isTransient(anthropic(400, 'invalid_request_error'))).toBe(false);
    expect(isTransient(anthropic(404, 'not_found_error'))).toBe(false);
  });

  it('R-H1: an error event in the middle of a stream (no status) is retried when it is an overload, not when the request was bad', () => {
    const midStream = (type: 'overloaded_error' | 'invalid_request_error') =>
      new AnthropicAPIError(
        undefined,
        { type: 'error', error: { type, message: 'x' } },
        undefined,
        new Headers(),
        type,
      );
    expect(isTransient(midStream('overloaded_error'))).toBe(true);
    expect(isTransient(midStream('invalid_request_error'))).toBe(false);
  });
});
