import type { Metrics } from '../web/metrics.ts';
import type { ModelUsage } from './model-reply.ts';

/** The counters a turn feeds (CONTRACT `/metrics`: LLM tokens); optional so tests and benches can omit them. */
export type TurnMetrics = Pick<Metrics, 'llmTokens' | 'llmRequests' | 'llmCacheHitTokens'>;

/** Counts one model request attempt; `session` is the session kind (`main`, `executor`). */
export function countRequest(
  metrics: TurnMetrics | undefined,
  session: string,
  outcome: 'ok' | 'error',
): void {
  metrics?.llmRequests.inc({ session, outcome });
}

/** Counts one answer's tokens; cache hits by session kind and model (issue 12: prompt-cache economy). */
export function countTokens(
  metrics: TurnMetrics | undefined,
  session: string,
  model: string,
  usage: ModelUsage,
): void {
  if (!metrics) return;
  metrics.llmTokens.inc({ session, kind: 'prompt' }, usage.promptTokens);
  metrics.llmTokens.inc({ session, kind: 'completion' }, usage.completionTokens);
  metrics.llmCacheHitTokens.inc({ session, model }, usage.cacheHitTokens);
}
