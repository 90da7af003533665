import type { ModelClient, ModelRequest } from './model-client.ts';
import type { ModelReply } from './model-reply.ts';
import { describeModelError, type RetryPolicy, retryDelay } from './retry-policy.ts';
import type { ToolCallListener } from './tool-call-listener.ts';

export type ModelAttempt =
  | { ok: true; reply: ModelReply }
  | { ok: false; reason: string; attempts: number; aborted?: true; error?: unknown };

export interface RetryHooks {
  /** Told about every failed attempt, retried or not (metrics, logs). */
  onError?: (err: unknown, attempt: number, willRetry: boolean) => void;
  sleep?: (ms: number) => Promise<void>;
  /** Aborts the request in flight and stops retrying (the worker is shutting down). */
  signal?: AbortSignal;
  /** Hears of each tool call complete in a streamed answer (issue 18), attempt by attempt. */
  onToolCall?: ToolCallListener;
}

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A back-off wait that a shutdown cuts short (a 429 may ask for 20 s, longer than the grace). */
function abortable(wait: Promise<void>, signal?: AbortSignal): Promise<void> {
  if (!signal) return wait;
  if (signal.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      signal.removeEventListener('abort', done);
      resolve();
    };
    signal.addEventListener('abort', done, { once: true });
    void wait.then(done);
  });
}

/**
 * Asks the model, retrying transient failures with back-off. Gives up with a reason the turn
 * reports as `failed`, so a dead endpoint ends the turn instead of hanging the job.
 */
export async function requestWithRetry(
  model: ModelClient,
  request: ModelRequest,
  policy: RetryPolicy,
  hooks: RetryHooks = {},
): Promise<ModelAttempt> {
  let waited = 0;
  for (let attempt = 1; ; attempt++) {
    try {
      return { ok: true, reply: await model.complete(request, hooks.signal, hooks.onToolCall) };
    } catch (err) {
      if (hooks.signal?.aborted) return { ok: false, reason: 'aborted', attempts: attempt, aborted: true };
      const delay = retryDelay(err, attempt, policy, waited);
      hooks.onError?.(err, attempt, delay !== undefined);
      if (delay === undefined)
        return { ok: false, reason: describeModelError(err), attempts: attempt, error: err };
      waited += delay;
      await abortable((hooks.sleep ?? realSleep)(delay), hooks.signal);
      if (hooks.signal?.aborted) return { ok: false, reason: 'aborted', attempts: attempt, aborted: true };
    }
  }
}
