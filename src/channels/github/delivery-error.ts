import { DeliveryError, isDeliveryError, retryAfterMs } from '../../outbox/errors.ts';

/** GitHub asks for at least a minute after a secondary rate limit that names no wait. */
const SECONDARY_LIMIT_WAIT_MS = 60_000;

interface HttpLike {
  status?: unknown;
  message?: unknown;
  response?: { headers?: Record<string, string | number | undefined> };
  errors?: Array<{ type?: string; message?: string }>;
}

const header = (h: HttpLike['response'], name: string): string | undefined => {
  const v = h?.headers?.[name];
  return v === undefined ? undefined : String(v);
};

/** How long the server asked us to wait: `Retry-After`, else until `x-ratelimit-reset`. */
function rateLimitWait(err: HttpLike, now: number): number | undefined {
  const after = retryAfterMs(header(err.response, 'retry-after'), now);
  if (after !== undefined) return after;
  const reset = Number(header(err.response, 'x-ratelimit-reset'));
  if (Number.isFinite(reset) && reset > 0) return Math.max(0, reset * 1000 - now) + 1000;
  return undefined;
}

function isRateLimited403(err: HttpLike): boolean {
  return (
    header(err.response, 'x-ratelimit-remaining') === '0' ||
    header(err.response, 'retry-after') !== undefined ||
    /rate limit/i.test(String(err.message ?? ''))
  );
}

/**
 * Maps what Octokit threw to the outbox's terms: 429 and rate-limited 403 retry after the wait
 * GitHub named; 5xx and network failures retry with back-off; any other 4xx (and GraphQL errors
 * other than RATE_LIMITED) fail for good, since sending the same request again can't help.
 */
export function toDeliveryError(e: unknown, now = Date.now()): DeliveryError {
  if (isDeliveryError(e)) return e;
  const err = (typeof e === 'object' && e !== null ? e : {}) as HttpLike;
  const message = `github: ${String(err.message ?? e)}`;
  if (typeof err.status !== 'number') {
    if (Array.isArray(err.errors)) {
      const limited = err.errors.some((x) => x.type === 'RATE_LIMITED');
      return new DeliveryError(message, !limited, limited ? rateLimitWait(err, now) : undefined);
    }
    return new DeliveryError(message, false);
  }
  const status = err.status;
  if (status === 429 || (status === 403 && isRateLimited403(err))) {
    const wait = rateLimitWait(err, now) ?? (status === 403 ? SECONDARY_LIMIT_WAIT_MS : undefined);
    return new DeliveryError(message, false, wait, status);
  }
  if (status >= 500) return new DeliveryError(message, false, undefined, status);
  return new DeliveryError(message, true, undefined, status);
}
