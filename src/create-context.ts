import { intakeSettled } from './cards/intake.ts';
import type { Config } from './config.ts';
import type { Ctx } from './context.ts';
import { createLogger, type Logger } from './logger.ts';
import { secretValuesOf } from './redact-log.ts';
import { createKeys } from './store/keys.ts';
import { closeQueues, createQueues } from './store/queues.ts';
import { connectRedis } from './store/redis.ts';
import { noteRedisDown, storeErrorListener } from './store/redis-down.ts';
import { createMetrics } from './web/metrics.ts';

/** Builds the shared context of one process (or one test) from parsed config. */
export function createContext(config: Config, opts: { log?: Logger; defaultMetrics?: boolean } = {}): Ctx {
  const log = opts.log ?? createLogger(config.LOG_LEVEL, {}, { secrets: secretValuesOf(config) });
  const redis = connectRedis(config.REDIS_URL);
  // Issue 32: one line naming REDIS_URL, at most every 10 s, however many connections fail.
  redis.on('error', (err) => noteRedisDown(log, config.REDIS_URL, err));
  const keys = createKeys(config.KEY_PREFIX);
  const queues = createQueues(redis, keys.queuePrefix);
  // Without a listener BullMQ prints every lost connection to stderr, outside the JSON log.
  for (const q of Object.values(queues))
    q.on('error', storeErrorListener(log, config.REDIS_URL, `queue ${q.name}`));
  return {
    config,
    redis,
    keys,
    queues,
    metrics: createMetrics(opts.defaultMetrics ?? false),
    log,
    now: () => Date.now(),
  };
}

/** Closes what `createContext` opened. */
export async function closeContext(ctx: Ctx): Promise<void> {
  // Cards answered but not yet queued get their jobs first (else the intake sweep queues them).
  await intakeSettled(ctx);
  await closeQueues(ctx.queues);
  ctx.redis.disconnect();
}
