import { Job, type JobsOptions, Queue } from 'bullmq';
import { type ChainableCommander, Cluster } from 'ioredis';
import { FencedError } from './fenced-error.ts';
import type { RedisConnection } from './redis.ts';

/** Builds a fenced write's commands on the MULTI; the queue is for BullMQ's own add script. */
export type FencedBuild = (m: ChainableCommander, onQueue: (name: string) => Queue) => void | Promise<void>;

/**
 * Issue 46: the one connection of a process whose MULTIs land only while a fencing epoch still
 * holds a token (WATCH on the epoch key, read it, MULTI … EXEC: Redis runs the EXEC only if
 * nobody wrote the epoch since the WATCH). Its own connection, because a WATCH is cleared by any
 * EXEC sent on the same connection, and the shared one carries everybody's MULTIs; its writes go
 * one at a time for the same reason. It neither queues commands while disconnected nor resends
 * them after a reconnect, so an EXEC never runs on a connection that lost its WATCH.
 */
export interface FencedWriter {
  exec(epochKey: string, token: string, build: FencedBuild): Promise<[Error | null, unknown][]>;
  close(): Promise<void>;
}

const writers = new WeakMap<Queue, FencedWriter>();

/** The process's fenced writer beside `outbox` (its shared queue; made at the first fenced write). */
export function fencedWriterOf(outbox: Queue, shared: RedisConnection, prefix: string): FencedWriter {
  let w = writers.get(outbox);
  if (!w) {
    w = createFencedWriter(shared, prefix);
    writers.set(outbox, w);
  }
  return w;
}

/** Closes the fenced writer made beside `outbox`, if any (`closeQueues`). */
export async function closeFencedWriterOf(outbox: Queue): Promise<void> {
  const w = writers.get(outbox);
  writers.delete(outbox);
  await w?.close();
}

function createFencedWriter(shared: RedisConnection, prefix: string): FencedWriter {
  const own =
    shared instanceof Cluster
      ? shared.duplicate()
      : shared.duplicate({ enableOfflineQueue: false, autoResendUnfulfilledCommands: false });
  let generation = 0;
  own.on('close', () => {
    generation += 1;
  });
  // Lost connections are reported by the shared connection's listener; this one only fails its writes.
  own.on('error', () => undefined);
  const queues = new Map<string, Queue>();
  const onQueue = (name: string): Queue => {
    let q = queues.get(name);
    if (!q) {
      // BullMQ loads its scripts onto `own` through this queue, so a MULTI of `own` can add jobs.
      q = new Queue(name, { connection: own, prefix });
      q.on('error', () => undefined);
      queues.set(name, q);
    }
    return q;
  };
  let tail: Promise<unknown> = Promise.resolve();

  async function once(epochKey: string, token: string, build: FencedBuild) {
    // The outbox's queue waits for the connection to be ready (commands fail fast while it is not).
    await onQueue('outbox').waitUntilReady();
    for (;;) {
      const at = generation;
      try {
        // Sent together, answered in one round trip: the read comes after the WATCH on this connection.
        const [, epoch] = await Promise.all([own.watch(epochKey), own.get(epochKey)]);
        if (epoch !== token) throw new FencedError(epochKey, token, epoch);
        const m = own.multi();
        await build(m, onQueue);
        if (at !== generation) throw new Error('the connection for fenced writes was lost during a write');
        const results = await m.exec();
        // Null: the epoch was written between WATCH and EXEC — read it again (a take-over refuses).
        if (results) return results;
      } catch (err) {
        await own.unwatch().catch(() => undefined);
        throw err;
      }
    }
  }

  return {
    exec(epochKey, token, build) {
      const run = tail.then(() => once(epochKey, token, build));
      tail = run.catch(() => undefined);
      return run;
    },
    async close() {
      await tail;
      await Promise.all([...queues.values()].map((q) => q.close()));
      own.disconnect();
    },
  };
}

/**
 * Adds a BullMQ job inside a fenced MULTI (as BullMQ's flow producer adds its jobs inside one):
 * the same add script `Queue.add` runs, on the MULTI. Results are checked by `jobAdded`.
 */
export async function addJobOn(
  m: ChainableCommander,
  queue: Queue,
  job: { name: string; data: unknown; opts: JobsOptions & { jobId: string } },
): Promise<void> {
  const j = new Job(queue, job.name, job.data, job.opts, job.opts.jobId);
  // BullMQ calls its scripts by name through `runCommand` (its own clients add it to theirs).
  const on = m as ChainableCommander & { runCommand?: (name: string, args: unknown[]) => unknown };
  on.runCommand = (name, args) => {
    const command = (m as unknown as Record<string, ((a: unknown[]) => unknown) | undefined>)[name];
    if (!command) throw new Error(`BullMQ's script ${name} is not loaded on the fenced connection`);
    command.call(m, args);
    return m;
  };
  await j.addJob(on as never, {});
}

/** Throws the error of a fenced MULTI's job add (BullMQ's add script answers a negative code). */
export function jobAdded(result: [Error | null, unknown] | undefined): void {
  if (!result) throw new Error('the fenced add returned nothing');
  const [err, id] = result;
  if (err) throw err;
  if (typeof id === 'number' && id < 0) throw new Error(`BullMQ refused the job (code ${id})`);
}
