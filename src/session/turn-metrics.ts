import type { Metrics } from '../web/metrics.ts';
import type { ModelUsage } from './model-reply.ts';

/** The counters a turn feeds (CONTRACT `/metrics`: LLM tokens); optional so tests and benches can omit them. */
export type TurnMetrics = Pick<
  Metrics,
  'llmTokens' | 'llmRequests' | 'llmCacheHitTokens' | 'llmRequestSeconds' | 'llmCostUsd'
>;

/** Counts one model request attempt; `session` is the session kind (`main`, `executor`). */
export function countRequest(
  metrics: TurnMetrics | undefined,
  session: string,
  model: string,
  outcome: 'ok' | 'error',
): void {
  metrics?.llmRequests.inc({ session, model, outcome });
}

/** Issue 17: how long a step's model request took (retries included), by how it ended. */
export function timeRequest(
  metrics: TurnMetrics | undefined,
  session: string,
  model: string,
  outcome: 'ok' | 'failed',
  ms: number,
): void {
  metrics?.llmRequestSeconds.observe({ session, model, outcome }, ms / 1000);
}

/** Counts one answer's tokens; cache hits by session kind and model (issue 12: prompt-cache economy). */
export function countTokens(
  metrics: TurnMetrics | undefined,
  session: string,
  model: string,
  usage: ModelUsage,
): void {
  if (!metrics) return;
  metrics.llmTokens.inc({ session, model, kind: 'prompt' }, usage.promptTokens);
  metrics.llmTokens.inc({ session, model, kind: 'completion' }, usage.completionTokens);
  metrics.llmCacheHitTokens.inc({ session, model }, usage.cacheHitTokens);
}

/** Issue 33: one request's cost (nano-dollars, from the price table) in dollars, for cost per day. */
export function countCost(
  metrics: TurnMetrics | undefined,
  session: string,
  model: string,
  nanos: number | undefined,
): void {
  if (nanos) metrics?.llmCostUsd.inc({ session, model }, nanos / 1e9);
}
