import { APIConnectionError, APIError } from 'openai';
import { anthropicSdkIfLoaded } from './anthropic-sdk.ts';
import { IncompleteStreamError } from './errors/incomplete-stream-error.ts';
import { MalformedToolCallError } from './errors/malformed-tool-call-error.ts';
import { ProviderCutError } from './errors/provider-cut-error.ts';
import { TruncatedAnswerError } from './errors/truncated-answer-error.ts';

export interface RetryPolicy {
  /** Attempts in all, the first included: a cap beside `totalDelayMs`. */
  attempts: number;
  baseDelayMs: number;
  /** The longest single wait, a `Retry-After` included. */
  maxDelayMs: number;
  /**
   * Issue 28 "model outages": retrying goes on until the waits add up to this much, so an outage
   * shorter than it costs a slow answer, not a failed turn.
   */
  totalDelayMs: number;
}

/** The settings' defaults (`LLM_RETRY_*`): about a minute of back-off, waits of 0.5 s to 30 s. */
export const defaultRetryPolicy: RetryPolicy = {
  attempts: 20,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  totalDelayMs: 60_000,
};

/** The retry policy the settings ask for (`LLM_RETRY_BASE_MS`, `LLM_RETRY_MAX_MS`, `LLM_RETRY_TOTAL_MS`). */
export function retryPolicyOf(c: {
  LLM_RETRY_BASE_MS: number;
  LLM_RETRY_MAX_MS: number;
  LLM_RETRY_TOTAL_MS: number;
}): RetryPolicy {
  return {
    ...defaultRetryPolicy,
    baseDelayMs: c.LLM_RETRY_BASE_MS,
    maxDelayMs: c.LLM_RETRY_MAX_MS,
    totalDelayMs: c.LLM_RETRY_TOTAL_MS,
  };
}

/**
 * How long to wait before attempt `attempt + 1` after `err`, having waited `waitedMs` already, or
 * `undefined` when retrying cannot help (a 400 or 401 stays one) or the waits reached the
 * policy's total. Time-outs, connection errors, 408/409/429/5xx and malformed tool calls are
 * transient; a `Retry-After` (429, 503) is honoured up to `maxDelayMs`.
 */
export function retryDelay(
  err: unknown,
  attempt: number,
  policy: RetryPolicy,
  waitedMs = 0,
): number | undefined {
  if (attempt >= policy.attempts || waitedMs >= policy.totalDelayMs || !isTransient(err)) return undefined;
  const hinted = retryAfterMs(err);
  if (hinted !== undefined) return Math.min(hinted, policy.maxDelayMs);
  const exp = policy.baseDelayMs * 2 ** (attempt - 1);
  // Jitter spreads the retries of many workers hit by one outage.
  return Math.min(exp * (0.8 + Math.random() * 0.4), policy.maxDelayMs);
}

export function isTransient(err: unknown): boolean {
  if (err instanceof MalformedToolCallError || err instanceof APIConnectionError) return true;
  // A tool call cut at the output cap is the turn's to handle (one retry with a note, issue 28).
  const anthropic = anthropicSdkIfLoaded();
  if (anthropic && err instanceof anthropic.APIConnectionError) return true;
  if (err instanceof IncompleteStreamError || err instanceof ProviderCutError) return true;
  // An error event in the middle of an Anthropic stream (after the 200) has no status, only a type.
  if (anthropic && err instanceof anthropic.APIError && err.status === undefined)
    return ['overloaded_error', 'api_error', 'rate_limit_error', 'timeout_error'].includes(err.type ?? '');
  const status = httpStatus(err);
  // Anthropic's 529 `overloaded_error` falls under >= 500.
  return status !== undefined && ([408, 409, 429].includes(status) || status >= 500);
}

/** An HTTP error from either SDK (the Chat Completions one or Anthropic's). */
function httpError(
  err: unknown,
): { status: number; headers: Headers | undefined; message: string } | undefined {
  const anthropic = anthropicSdkIfLoaded();
  if (
    (err instanceof APIError || (anthropic && err instanceof anthropic.APIError)) &&
    err.status !== undefined
  )
    return { status: err.status, headers: err.headers, message: err.message };
  return undefined;
}

function httpStatus(err: unknown): number | undefined {
  return httpError(err)?.status;
}

function retryAfterMs(err: unknown): number | undefined {
  const headers = httpError(err)?.headers;
  if (!headers) return undefined;
  const ms = Number(headers.get('retry-after-ms'));
  if (ms > 0) return ms;
  const raw = headers.get('retry-after');
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (!Number.isNaN(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** One line for a person: what failed, without the stack. */
export function describeModelError(err: unknown): string {
  const http = httpError(err);
  if (http) return `model endpoint answered ${http.status}: ${http.message}`;
  // People read this in the blocked message: name the tool, never echo the garbled arguments.
  if (err instanceof TruncatedAnswerError)
    return `the model's answer hit its token cap inside tool call "${err.toolName}": raise LLM_MAX_TOKENS`;
  if (err instanceof MalformedToolCallError)
    return `the model sent a malformed tool call "${err.toolName}" (its arguments are not JSON)`;
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}
