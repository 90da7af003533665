import type { JobsOptions, Queue } from 'bullmq';
import type { RedisConnection } from './redis.ts';

/**
 * One job of a kind at a time (an executor turn per ticket, the main session's turn), kept by
 * BullMQ's own deduplication (issue 46 item 2): BullMQ's add script itself sees whether a job with
 * the same `dedupId` waits (nothing is added: that job takes whatever waits when it starts) or runs
 * (the new one is kept and queued by the script that finishes the running one — once, however many
 * arrive meanwhile, the last one's options kept). The key is written in the add script and cleared
 * in the finishing one, so no process dying between two steps leaves a key with no job behind it.
 * The job's id is `<idPrefix>-<seq>`, the counter advanced for each: a process that dies after
 * advancing it skips a number, nothing more.
 */
export interface QueuedJob {
  seq: string;
  queue: Queue;
  name: string;
  data: unknown;
  idPrefix: string;
  dedupId: string;
  opts: JobsOptions;
}

/** Queues the job, or leaves it to the one waiting or after the one running; true when queued now. */
export async function addQueuedJob(redis: RedisConnection, j: QueuedJob): Promise<boolean> {
  const id = `${j.idPrefix}-${await redis.incr(j.seq)}`;
  const job = await j.queue.add(j.name, j.data, {
    ...j.opts,
    jobId: id,
    deduplication: { id: j.dedupId, keepLastIfActive: true },
  });
  return job.id === id;
}
