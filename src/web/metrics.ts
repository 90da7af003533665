import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** Prometheus metrics of one process (CONTRACT `/metrics`). A registry per context keeps tests apart. */
export function createMetrics(withDefaults = false) {
  const registry = new Registry();
  if (withDefaults) collectDefaultMetrics({ register: registry });
  const counter = (name: string, help: string, labelNames: string[]) =>
    new Counter({ name, help, labelNames, registers: [registry] });
  return {
    registry,
    eventsIn: counter('switchyard_events_in_total', 'Webhook events accepted', ['source']),
    duplicates: counter('switchyard_duplicates_dropped_total', 'Redelivered events dropped', ['source']),
    rejected: counter('switchyard_webhooks_rejected_total', 'Webhooks answered 4xx', ['source', 'status']),
    /** Issue 31: events answered `rate_limited` (nothing stored), by the limit they were over. */
    rateLimited: counter('switchyard_ingest_rate_limited_total', 'Events dropped by the ingest rate limit', [
      'source',
      'scope',
    ]),
    jobs: counter('switchyard_jobs_total', 'Jobs finished', ['queue', 'outcome']),
    deliveries: counter('switchyard_outbox_deliveries_total', 'Outgoing effects', ['channel', 'outcome']),
    llmTokens: counter('switchyard_llm_tokens_total', 'Model tokens used', ['session', 'model', 'kind']),
    llmRequests: counter('switchyard_llm_requests_total', 'Model requests', ['session', 'model', 'outcome']),
    /** Issue 17: one model request of a step, retries and compaction included, by how it ended. */
    llmRequestSeconds: new Histogram({
      name: 'switchyard_llm_request_duration_seconds',
      help: 'Time a model request took, retries included',
      labelNames: ['session', 'model', 'outcome'],
      buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 40, 80, 160],
      registers: [registry],
    }),
    /** Issue 17: commands executors ran in the sandbox, by how they ended. */
    sandboxCommandSeconds: new Histogram({
      name: 'switchyard_sandbox_command_duration_seconds',
      help: 'Time a sandboxed command of an executor took',
      labelNames: ['tool', 'outcome'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
      registers: [registry],
    }),
    /** Issue 12: divide by `switchyard_llm_tokens_total{kind="prompt"}` for the cache-hit share. */
    llmCacheHitTokens: counter(
      'switchyard_llm_cache_hit_tokens_total',
      "Prompt tokens served from the provider's prefix cache",
      ['session', 'model'],
    ),
    /** Issue 33: model spend by the price table (`src/stats/prices.ts`, `LLM_PRICES`), for cost per day. */
    llmCostUsd: counter('switchyard_llm_cost_usd_total', 'Model spend in US dollars by the price table', [
      'session',
      'model',
    ]),
    errors: counter('switchyard_errors_total', 'Errors by place', ['where']),
    /** Issue 16: 1 while this process holds the Feishu long connection and it is open; summed over processes, 1. */
    feishuWsOpen: new Gauge({
      name: 'switchyard_feishu_ws_open',
      help: 'Whether this process has the Feishu long connection open',
      registers: [registry],
    }),
    /** Issue 31: Redis's used memory over its limit (`maxmemory`, else `REDIS_MEMORY_LIMIT_MB`), set by the memory watch. */
    redisMemoryUsedRatio: new Gauge({
      name: 'switchyard_redis_memory_used_ratio',
      help: 'Redis used_memory over its limit; at 1 Redis (noeviction) refuses writes',
      registers: [registry],
    }),
    ingestSeconds: new Histogram({
      name: 'switchyard_ingest_seconds',
      help: 'Time from request to webhook answer',
      labelNames: ['source'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
