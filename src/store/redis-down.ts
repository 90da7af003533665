import type { Logger } from '../logger.ts';

/** Issue 32: how often the line saying Redis does not answer is repeated, at most. */
export const REDIS_DOWN_EVERY_MS = 10_000;

const lastSaid = new WeakMap<Logger, number>();

/** `REDIS_URL` as it may be shown: a password in it is replaced by `***`. */
export function shownRedisUrl(url: string): string {
  return url.replace(
    /\/\/([^@/]*)@/g,
    (_m, auth: string) => `//${auth.includes(':') ? `${auth.split(':')[0]}:***` : '***'}@`,
  );
}

/**
 * Issue 32: a connection error of the store, said as what to do — one line naming `REDIS_URL` and
 * how to start Redis, at most every `REDIS_DOWN_EVERY_MS` per logger, whichever connection (the
 * store's, a queue's, a worker's) met it. Without it each of them logged every reconnect attempt.
 */
export function noteRedisDown(log: Logger, url: string, err: Error, now = Date.now()): void {
  const last = lastSaid.get(log);
  if (last !== undefined && now - last < REDIS_DOWN_EVERY_MS) return;
  lastSaid.set(log, now);
  log.error(
    { err: err.message, redisUrl: shownRedisUrl(url) },
    `Redis does not answer at REDIS_URL=${shownRedisUrl(url)} (${err.message}): start Redis (redis-server, or docker compose up -d redis) or set REDIS_URL to one that answers; retrying`,
  );
}

/** A failure to reach Redis, as ioredis and BullMQ report it (not a command's own error). */
export function isConnectionError(err: Error): boolean {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  return (
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'EPIPE'].includes(
      code,
    ) || /ECONNREFUSED|Connection is closed|connect ETIMEDOUT|getaddrinfo/.test(err.message)
  );
}

/** An `error` listener for a connection of the store: a lost Redis through `noteRedisDown`, anything else as itself. */
export function storeErrorListener(log: Logger, url: string, what: string): (err: Error) => void {
  return (err) =>
    isConnectionError(err) ? noteRedisDown(log, url, err) : log.warn({ err: err.message }, `${what} error`);
}
