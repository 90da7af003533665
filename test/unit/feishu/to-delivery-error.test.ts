import { describe, expect, it } from 'vitest';
import { businessFailure, toDeliveryError } from '../../../src/channels/feishu/to-delivery-error.ts';

const http = (status: number, data: unknown, headers: Record<string, string> = {}) => ({
  message: `Request failed with status code ${status}`,
  response: { status, data, headers },
});

describe('toDeliveryError', () => {
  it('R-A1: 429 retries after x-ogw-ratelimit-reset, else Retry-After, else about a second', () => {
    expect(
      toDeliveryError(http(429, { code: 99991400 }, { 'x-ogw-ratelimit-reset': '2' }), 'op'),
    ).toMatchObject({
      permanent: false,
      retryAfterMs: 2000,
      status: 429,
    });
    expect(toDeliveryError(http(429, {}, { 'retry-after': '5' }), 'op').retryAfterMs).toBe(5000);
    expect(toDeliveryError(http(429, {}), 'op').retryAfterMs).toBe(1000);
  });

  it('R-A1: rate-limit business codes retry whatever the HTTP status', () => {
    expect(toDeliveryError(http(400, { code: 230020, msg: 'slow down' }), 'op')).toMatchObject({
      permanent: false,
    });
    expect(businessFailure({ code: 99991400 }, 'op')).toMatchObject({ permanent: false, retryAfterMs: 1000 });
  });

  it('R-A1: 5xx, network errors and expired tokens retry; other 4xx and codes are permanent', () => {
    expect(toDeliveryError(http(502, 'bad gateway'), 'op').permanent).toBe(false);
    expect(
      toDeliveryError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), 'op')
        .permanent,
    ).toBe(false);
    expect(toDeliveryError(http(400, { code: 99991663 }), 'op').permanent).toBe(false);
    expect(toDeliveryError(http(400, { code: 230002, msg: 'bot not in chat' }), 'op')).toMatchObject({
      permanent: true,
      status: 400,
    });
    expect(businessFailure({ code: 230011, msg: 'message recalled' }, 'op').permanent).toBe(true);
  });
});
