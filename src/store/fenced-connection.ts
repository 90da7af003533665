import { Cluster } from 'ioredis';
import type { RedisConnection } from './redis.ts';

/** How long a fenced write waits for its connection to be ready (ioredis retries within 2 s). */
const READY_WAIT_MS = 10_000;

/**
 * A connection for fenced writes (`fenced-writer.ts`) beside `shared`, carrying one write at a
 * time: no offline queue (a command sent while it is down fails at once, so nothing of a write
 * goes out then) and nothing resent after a reconnect (a resent EXEC would run without its WATCH).
 */
export function openFencedConnection(shared: RedisConnection): RedisConnection {
  const conn =
    shared instanceof Cluster
      ? shared.duplicate()
      : shared.duplicate({ enableOfflineQueue: false, autoResendUnfulfilledCommands: false });
  // Lost connections are reported by the shared connection's listener; this one only fails its writes.
  conn.on('error', () => undefined);
  return conn;
}

/** Resolves once `conn` is ready; throws when it closes for good, or after `READY_WAIT_MS`. */
export async function untilReady(conn: RedisConnection): Promise<void> {
  if (conn.status === 'ready') return;
  let timer: NodeJS.Timeout | undefined;
  let onReady = () => {};
  let onEnd = () => {};
  try {
    await new Promise<void>((resolve, reject) => {
      onReady = resolve;
      onEnd = () => reject(new Error('the connection for fenced writes was closed'));
      conn.once('ready', onReady);
      conn.once('end', onEnd);
      timer = setTimeout(
        () => reject(new Error(`the connection for fenced writes was not ready within ${READY_WAIT_MS} ms`)),
        READY_WAIT_MS,
      );
    });
  } finally {
    clearTimeout(timer);
    conn.off('ready', onReady);
    conn.off('end', onEnd);
  }
}

/**
 * `reply`, or a rejection once `conn` closes first. A command that went out and lost its
 * connection before its answer is never settled by ioredis when it resends nothing: it is kept for
 * a resend and dropped at the next ready (`autoResendUnfulfilledCommands: false`), so a write
 * awaiting it — and the turn, and the workers' close behind it — waited for ever (seen after a
 * Sentinel fail-over). Whether such a write landed nobody can tell: the caller is told it is lost.
 */
export function answeredOrLost<T>(conn: RedisConnection, reply: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onClose = () =>
      reject(
        new Error(
          'the connection for fenced writes was lost before the answer: the write may or may not have landed',
        ),
      );
    conn.once('close', onClose);
    reply.then(resolve, reject).finally(() => conn.off('close', onClose));
  });
}
