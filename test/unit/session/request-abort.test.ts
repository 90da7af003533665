import { APIConnectionError } from 'openai';
import { describe, expect, it } from 'vitest';
import type { ModelClient } from '../../../src/session/model-client.ts';
import { requestWithRetry } from '../../../src/session/request-with-retry.ts';

const request = { system: 's', messages: [], tools: [] };

/** A model endpoint that is down: every request fails with a retryable connection error. */
const down = (calls: { n: number }): ModelClient => ({
  model: 'm',
  async complete() {
    calls.n += 1;
    throw new APIConnectionError({ message: 'connection refused' });
  },
});

describe('requestWithRetry and a shutdown', () => {
  it('issue 8: a shutdown during a back-off wait ends it at once as aborted, without another attempt', async () => {
    const calls = { n: 0 };
    const shutdown = new AbortController();
    setTimeout(() => shutdown.abort(), 50);
    const started = Date.now();
    const attempt = await requestWithRetry(
      down(calls),
      request,
      { attempts: 4, baseDelayMs: 10_000, maxDelayMs: 10_000, totalDelayMs: 60_000 },
      { signal: shutdown.signal },
    );
    expect(Date.now() - started).toBeLessThan(2000);
    expect(attempt).toMatchObject({ ok: false, aborted: true });
    expect(calls.n).toBe(1);
  });

  it('without a shutdown the same failures are retried and reported as a failure, not an abort', async () => {
    const calls = { n: 0 };
    const attempt = await requestWithRetry(down(calls), request, {
      attempts: 3,
      baseDelayMs: 1,
      maxDelayMs: 5,
      totalDelayMs: 60_000,
    });
    expect(attempt.ok).toBe(false);
    expect(attempt).not.toHaveProperty('aborted');
    expect(calls.n).toBe(3);
  });
});
