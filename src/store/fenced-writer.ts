import { Job, type JobsOptions, type Queue } from 'bullmq';
import type { ChainableCommander } from 'ioredis';
import { answeredOrLost, openFencedConnection, untilReady } from './fenced-connection.ts';
import { FencedError } from './fenced-error.ts';
import type { RedisConnection } from './redis.ts';

/** Builds a fenced write's commands on the MULTI (a BullMQ job with `addJobOn`). */
export type FencedBuild = (m: ChainableCommander) => void | Promise<void>;

/** At most this many connections carry a process's fenced writes: independent leases' go together. */
export const FENCED_CONNECTIONS = 4;

/**
 * Issue 46: the epoch compare, run between the WATCH and the MULTI of the same flush. While the
 * epoch is the token it answers 1 and the EXEC runs (unless the epoch moves before it). Otherwise
 * it answers the epoch and writes the key back unchanged (its value and time to live; absent stays
 * absent): a write to a watched key, even by the watching connection, makes the EXEC after it do
 * nothing. Over maxmemory that write fails, but so does the MULTI, which Redis then refuses whole.
 */
const CHECK = `
local epoch = redis.call('GET', KEYS[1])
if epoch == ARGV[1] then return 1 end
if epoch then
  redis.call('SET', KEYS[1], epoch, 'KEEPTTL')
else
  redis.call('SET', KEYS[1], '0')
  redis.call('DEL', KEYS[1])
end
return epoch
`;

/**
 * Issue 46: the connections of a process whose MULTIs land only while a fencing epoch still holds
 * a token. A write is one flush — WATCH of the epoch, the compare (`CHECK`), MULTI, the write's
 * commands, EXEC — so it costs the round trip the MULTI costs anyway, and Redis runs the EXEC only
 * if the epoch held at the compare and nobody wrote it since. Not the shared connection: a WATCH
 * is cleared by any EXEC sent on its connection, and the shared one carries everybody's MULTIs.
 * Each connection carries one fenced write at a time (`FENCED_CONNECTIONS` of them, opened as
 * writes overlap), so independent leases' writes go side by side and a WATCH … EXEC never
 * interleaves with another on its connection. They neither queue commands while disconnected nor
 * resend them after a reconnect: a write finding its connection down waits until it is ready again
 * and is tried once more; an EXEC never runs on a connection that lost its WATCH.
 */
export interface FencedWriter {
  exec(epochKey: string, token: string, build: FencedBuild): Promise<[Error | null, unknown][]>;
  /** The connections open now (for diagnostics and tests). */
  connections(): RedisConnection[];
  close(): Promise<void>;
}

const writers = new WeakMap<Queue, FencedWriter>();

/** The process's fenced writer beside `outbox` (its shared queue; made at the first fenced write). */
export function fencedWriterOf(outbox: Queue, shared: RedisConnection): FencedWriter {
  let w = writers.get(outbox);
  if (!w) {
    w = createFencedWriter(shared);
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

export function createFencedWriter(shared: RedisConnection): FencedWriter {
  const open: RedisConnection[] = [];
  const idle: RedisConnection[] = [];
  const waiting: ((conn: RedisConnection) => void)[] = [];
  const running = new Set<Promise<unknown>>();
  const acquire = async (): Promise<RedisConnection> => {
    const conn = idle.pop();
    if (conn) return conn;
    if (open.length < FENCED_CONNECTIONS) {
      const made = openFencedConnection(shared);
      open.push(made);
      return made;
    }
    return new Promise((resolve) => waiting.push(resolve));
  };
  const release = (conn: RedisConnection): void => {
    const next = waiting.shift();
    if (next) next(conn);
    else idle.push(conn);
  };
  return {
    exec(epochKey, token, build) {
      const run = acquire().then(async (conn) => {
        try {
          return await writeOn(conn, epochKey, token, build);
        } finally {
          release(conn);
        }
      });
      running.add(run);
      void run.catch(() => undefined).finally(() => running.delete(run));
      return run;
    },
    connections: () => [...open],
    async close() {
      await Promise.allSettled([...running]);
      for (const conn of open) conn.disconnect();
    },
  };
}

/**
 * One fenced write on `conn`. A write that finds the connection down sends nothing, waits for it
 * to be ready again and is tried once more; down again, it throws. A write that went out and lost
 * its connection before the answer throws as well: nobody can tell whether its EXEC ran, and a
 * transcript step sent twice would be recorded twice. A write whose EXEC Redis skipped while the
 * compare had found the token current (the epoch moved in between, or a stale writer's compare
 * touched it) is sent again: its compare then tells.
 */
async function writeOn(
  conn: RedisConnection,
  epochKey: string,
  token: string,
  build: FencedBuild,
): Promise<[Error | null, unknown][]> {
  let unsent = 0;
  for (;;) {
    await untilReady(conn);
    const p = conn.pipeline();
    // `call`: plain commands, so ioredis does not treat the MULTI as its own transaction.
    p.watch(epochKey).eval(CHECK, 1, epochKey, token).call('multi');
    await build(p);
    p.call('exec');
    // Written in one go below, or (the connection down) not at all: ioredis refuses each command.
    if (conn.status !== 'ready') {
      unsent += 1;
      if (unsent > 1) throw new Error('the connection for fenced writes was lost again before a write');
      continue;
    }
    const replies = (await answeredOrLost(conn, p.exec())) ?? [];
    const results = fencedResults(replies, epochKey, token);
    if (results) return results;
  }
}

/** The EXEC's results; null when Redis skipped the EXEC with the token current at the compare. */
function fencedResults(
  replies: [Error | null, unknown][],
  epochKey: string,
  token: string,
): [Error | null, unknown][] | null {
  const [watched, checked] = replies;
  const exec = replies.at(-1);
  for (const reply of [watched, checked]) if (reply?.[0]) throw reply[0];
  if (checked?.[1] !== 1) throw new FencedError(epochKey, token, (checked?.[1] as string | null) ?? null);
  if (exec?.[0]) throw exec[0];
  const results = exec?.[1];
  if (!Array.isArray(results)) return null;
  return results.map((r): [Error | null, unknown] => (r instanceof Error ? [r, null] : [null, r]));
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
  // BullMQ defines its scripts on the queue's connection (at its start); each is sent to whatever
  // it is called on, so it runs on the MULTI as on that connection. The fenced connections carry
  // none of them: a pipeline of a connection copies every script it has, 52 of BullMQ's.
  await queue.waitUntilReady();
  const scripts = queue.opts.connection as unknown as Record<string, ScriptFn | undefined>;
  const j = new Job(queue, job.name, job.data, job.opts, job.opts.jobId);
  // BullMQ calls its scripts by name through `runCommand` (its own clients add it to theirs).
  const on = m as ChainableCommander & { runCommand?: (name: string, args: unknown[]) => unknown };
  on.runCommand = (name, args) => {
    const command = scripts[name];
    if (typeof command !== 'function') throw new Error(`BullMQ's script ${name} is not loaded`);
    command.call(m, args);
    return m;
  };
  await j.addJob(on as never, {});
}

type ScriptFn = (this: ChainableCommander, args: unknown[]) => unknown;

/** Throws the error of a fenced MULTI's job add (BullMQ's add script answers a negative code). */
export function jobAdded(result: [Error | null, unknown] | undefined): void {
  if (!result) throw new Error('the fenced add returned nothing');
  const [err, id] = result;
  if (err) throw err;
  if (typeof id === 'number' && id < 0) throw new Error(`BullMQ refused the job (code ${id})`);
}
