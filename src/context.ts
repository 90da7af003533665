import type { Config } from './config.ts';
import type { Logger } from './logger.ts';
import type { Keys } from './store/keys.ts';
import type { Queues } from './store/queues.ts';
import type { RedisConnection } from './store/redis.ts';
import type { Metrics } from './web/metrics.ts';

/**
 * What every part of the product is handed: parsed config, the Redis connection, key names,
 * queues, metrics and a logger. Built once in `main.ts` (and per test with a fresh prefix).
 */
export interface Ctx {
  config: Config;
  redis: RedisConnection;
  keys: Keys;
  queues: Queues;
  metrics: Metrics;
  log: Logger;
  /** Injectable clock for tests of time windows. */
  now: () => number;
}
