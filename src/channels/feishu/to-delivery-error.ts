import { DeliveryError, retryAfterMs } from '../../outbox/errors.ts';

/** Feishu's "too many requests" business codes: the gateway's and the per-chat send limit. */
export const FEISHU_RATE_LIMIT_CODES = new Set([99991400, 230020]);
/** Token codes (invalid / expired tenant token): retried after the cached token is dropped. */
export const TOKEN_CODES = new Set([99991661, 99991663, 99991668]);
/** When Feishu says "slow down" without saying for how long. */
export const DEFAULT_RETRY_AFTER_MS = 1000;

interface HttpFailure {
  response?: { status?: number; headers?: Record<string, unknown>; data?: unknown };
  message?: string;
  code?: string;
}

/** A Feishu answer `{ code, msg }` with a non-zero code (HTTP 200 or not). */
export interface FeishuBusinessError {
  code: number;
  msg?: string;
}

/**
 * Maps a failed Feishu call to what the outbox should do with it: rate limits (HTTP 429, codes
 * 99991400/230020) retry after `x-ogw-ratelimit-reset` / `Retry-After` (else ~1 s); 5xx, network
 * errors and stale tokens retry with back-off; every other 4xx or business code is permanent.
 */
export function toDeliveryError(err: unknown, op: string, now = Date.now()): DeliveryError {
  if (err instanceof DeliveryError) return err;
  const failure = (err ?? {}) as HttpFailure;
  const res = failure.response;
  if (!res) {
    // No answer at all (refused, reset, time-out) or a bug: retrying is safe, Feishu dedupes on uuid.
    return new DeliveryError(`${op}: ${failure.message ?? String(err)}`, false);
  }
  const status = res.status ?? 0;
  const body = businessOf(res.data);
  const wait = waitFromHeaders(res.headers, now);
  const what = `${op}: HTTP ${status}${body ? ` code ${body.code} ${body.msg ?? ''}` : ''}`.trim();
  if (status === 429 || (body && FEISHU_RATE_LIMIT_CODES.has(body.code))) {
    return new DeliveryError(what, false, wait ?? DEFAULT_RETRY_AFTER_MS, status);
  }
  if (status >= 500 || (body && TOKEN_CODES.has(body.code)))
    return new DeliveryError(what, false, wait, status);
  return new DeliveryError(what, true, undefined, status);
}

/** The same decision for an HTTP 200 answer that carries a non-zero business code. */
export function businessFailure(body: FeishuBusinessError, op: string): DeliveryError {
  const what = `${op}: code ${body.code} ${body.msg ?? ''}`.trim();
  if (FEISHU_RATE_LIMIT_CODES.has(body.code))
    return new DeliveryError(what, false, DEFAULT_RETRY_AFTER_MS, 200);
  if (TOKEN_CODES.has(body.code)) return new DeliveryError(what, false, undefined, 200);
  return new DeliveryError(what, true, undefined, 200);
}

function businessOf(data: unknown): FeishuBusinessError | undefined {
  if (!data || typeof data !== 'object') return undefined;
  const { code, msg } = data as { code?: unknown; msg?: unknown };
  return typeof code === 'number' ? { code, ...(typeof msg === 'string' ? { msg } : {}) } : undefined;
}

/** `x-ogw-ratelimit-reset` is seconds until the window resets; `Retry-After` seconds or a date. */
function waitFromHeaders(headers: Record<string, unknown> | undefined, now: number): number | undefined {
  if (!headers) return undefined;
  const header = (name: string) => {
    const v = headers[name] ?? headers[name.toLowerCase()];
    return v === undefined || v === null ? undefined : String(v);
  };
  const reset = Number(header('x-ogw-ratelimit-reset'));
  if (header('x-ogw-ratelimit-reset') !== undefined && Number.isFinite(reset))
    return Math.max(0, reset * 1000);
  return retryAfterMs(header('retry-after'), now);
}

/** Whether a failure (thrown or answered) says the tenant token is no longer good. */
export function isStaleTokenFailure(errOrAnswer: unknown): boolean {
  const data = (errOrAnswer as HttpFailure | undefined)?.response?.data ?? errOrAnswer;
  const code = businessOf(data)?.code;
  return code !== undefined && TOKEN_CODES.has(code);
}
