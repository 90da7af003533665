import { Queue } from 'bullmq';
import { closeFencedWriterOf } from './fenced-writer.ts';
import type { Keys } from './keys.ts';
import type { RedisConnection } from './redis.ts';

/** Every BullMQ queue of the product, by name. */
export const QUEUE_NAMES = {
  /** One job per stored card: place it (code first, then the main session). */
  route: 'route',
  /** One job per main-session turn. */
  main: 'main',
  /** One job per executor turn of a ticket. */
  executor: 'executor',
  /** Every outgoing effect (R-D1 messages, reactions, comments, card edits). */
  outbox: 'outbox',
  /** One delayed job per ticket whose status message needs a (coalesced) edit (issue 9). */
  status: 'status',
  /** The watchdog, retention and redelivery sweeps (`src/safety/safety-jobs.ts` schedules them). */
  safety: 'safety',
} as const;
export type QueueName = (typeof QUEUE_NAMES)[keyof typeof QUEUE_NAMES];

export type Queues = Record<QueueName, Queue>;

export function createQueues(connection: RedisConnection, prefix: string): Queues {
  const make = (name: QueueName) => new Queue(name, { connection, prefix });
  return {
    route: make('route'),
    main: make('main'),
    executor: make('executor'),
    outbox: make('outbox'),
    status: make('status'),
    safety: make('safety'),
  };
}

/** A queue outside the five above (the safety jobs'), on the shared connection and the deployment's prefix. */
export function createQueue(
  ctx: { redis: RedisConnection; keys: Pick<Keys, 'queuePrefix'> },
  name: string,
): Queue {
  return new Queue(name, { connection: ctx.redis, prefix: ctx.keys.queuePrefix });
}

export async function closeQueues(queues: Queues): Promise<void> {
  // Issue 46: the fenced writes' own connection, made beside the outbox's queue at the first one.
  await closeFencedWriterOf(queues.outbox);
  await Promise.all(Object.values(queues).map((q) => q.close()));
}
