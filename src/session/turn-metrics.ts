import type { Metrics } from '../web/metrics.ts';
import type { ModelUsage } from './model-reply.ts';

/** The counters a turn feeds (CONTRACT `/metrics`: LLM tokens); optional so tests and benches can omit them. */
export type TurnMetrics = Pick<Metrics, 'llmTokens' | 'llmRequests'>;

/** Counts one model request attempt; `session` is the session kind (`main`, `executor`). */
export function countRequest(
  metrics: TurnMetrics | undefined,
  session: string,
  outcome: 'ok' | 'error',
): void {
  metrics?.llmRequests.inc({ session, outcome });
}

export function countTokens(metrics: TurnMetrics | undefined, session: string, usage: ModelUsage): void {
  if (!metrics) return;
  metrics.llmTokens.inc({ session, kind: 'prompt' }, usage.promptTokens);
  metrics.llmTokens.inc({ session, kind: 'completion' }, usage.completionTokens);
}
