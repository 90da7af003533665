import { describe, expect, it } from 'vitest';
import { toDeliveryError } from '../../../src/channels/github/delivery-error.ts';
import { markerOf, withMarker } from '../../../src/channels/github/marker.ts';

const http = (status: number, headers: Record<string, string> = {}, message = 'x') => ({
  status,
  message,
  response: { headers },
});

describe('GitHub errors in outbox terms', () => {
  const now = 1_700_000_000_000;

  it('429 retries after Retry-After; 403 with x-ratelimit-remaining 0 retries after the reset', () => {
    expect(toDeliveryError(http(429, { 'retry-after': '7' }), now)).toMatchObject({
      permanent: false,
      retryAfterMs: 7000,
    });
    const reset = String(now / 1000 + 30);
    const e = toDeliveryError(http(403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }), now);
    expect(e).toMatchObject({ permanent: false, retryAfterMs: 31_000, status: 403 });
  });

  it('a secondary rate limit without headers waits a minute', () => {
    const e = toDeliveryError(http(403, {}, 'You have exceeded a secondary rate limit'), now);
    expect(e).toMatchObject({ permanent: false, retryAfterMs: 60_000 });
  });

  it('5xx and network failures retry; other 4xx and GraphQL NOT_FOUND fail for good', () => {
    expect(toDeliveryError(http(502), now).permanent).toBe(false);
    expect(toDeliveryError(new TypeError('fetch failed'), now).permanent).toBe(false);
    expect(toDeliveryError(http(403, {}, 'Resource not accessible by integration'), now).permanent).toBe(
      true,
    );
    expect(toDeliveryError(http(422), now).permanent).toBe(true);
    expect(toDeliveryError({ errors: [{ type: 'NOT_FOUND', message: 'no' }] }, now).permanent).toBe(true);
    expect(toDeliveryError({ errors: [{ type: 'RATE_LIMITED', message: 'slow' }] }, now).permanent).toBe(
      false,
    );
  });

  it('the comment marker is hidden, stable per key and different across keys', () => {
    expect(markerOf('k1')).toMatch(/^<!-- switchyard:[0-9a-f]{20} -->$/);
    expect(markerOf('k1')).toBe(markerOf('k1'));
    expect(markerOf('k1')).not.toBe(markerOf('k2'));
    expect(withMarker('Done.', 'k1')).toBe(`Done.\n\n${markerOf('k1')}`);
  });
});
