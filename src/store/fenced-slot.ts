import { Queue } from 'bullmq';
import { Cluster } from 'ioredis';
import type { RedisConnection } from './redis.ts';

/** How long a fenced write waits for its connection to be ready (ioredis retries within 2 s). */
const READY_WAIT_MS = 10_000;

/** One connection of the fenced writer (`fenced-writer.ts`), carrying one write at a time. */
export interface FencedSlot {
  conn: RedisConnection;
  /** BullMQ's queue `name` on this connection: its scripts loaded onto it, for a MULTI to add jobs. */
  queue(name: string): Queue;
  /** Settles once BullMQ's scripts are on the connection (at its first ready). */
  loaded: Promise<void>;
  close(): Promise<void>;
}

/**
 * A connection for fenced writes beside `shared`: no offline queue (a command sent while it is
 * down fails at once, so nothing of a write goes out then) and nothing resent after a reconnect
 * (a resent EXEC would run without its WATCH).
 */
export function openSlot(shared: RedisConnection, prefix: string): FencedSlot {
  const conn =
    shared instanceof Cluster
      ? shared.duplicate()
      : shared.duplicate({ enableOfflineQueue: false, autoResendUnfulfilledCommands: false });
  // Lost connections are reported by the shared connection's listener; this one only fails its writes.
  conn.on('error', () => undefined);
  const queues = new Map<string, Queue>();
  const queue = (name: string): Queue => {
    let q = queues.get(name);
    if (!q) {
      // BullMQ loads its scripts onto `conn` through this queue, so a MULTI of `conn` can add jobs.
      q = new Queue(name, { connection: conn, prefix });
      q.on('error', () => undefined);
      queues.set(name, q);
    }
    return q;
  };
  const loaded = queue('outbox')
    .waitUntilReady()
    .then(() => undefined);
  loaded.catch(() => undefined);
  return {
    conn,
    queue,
    loaded,
    async close() {
      await Promise.all([...queues.values()].map((q) => q.close()));
      conn.disconnect();
    },
  };
}

/** Resolves once `slot`'s connection is ready and BullMQ's scripts are on it; throws after `READY_WAIT_MS`. */
export async function untilReady(slot: FencedSlot): Promise<void> {
  const { conn } = slot;
  if (conn.status !== 'ready') {
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
          () =>
            reject(new Error(`the connection for fenced writes was not ready within ${READY_WAIT_MS} ms`)),
          READY_WAIT_MS,
        );
      });
    } finally {
      clearTimeout(timer);
      conn.off('ready', onReady);
      conn.off('end', onEnd);
    }
  }
  await slot.loaded;
}
