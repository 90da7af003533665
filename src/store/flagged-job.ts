import type { JobsOptions, Queue } from 'bullmq';
import type { RedisConnection } from './redis.ts';

/**
 * One job kept queued behind a flag (an executor turn per ticket, the main session's turn): the
 * flag says a job is queued and not yet started, so wake-ups in between add nothing; the job's id
 * is `<idPrefix>-<seq>`, the counter advanced for each.
 */
export interface FlaggedJob {
  flag: string;
  flagSeconds: number;
  seq: string;
  queue: Queue;
  name: string;
  data: unknown;
  idPrefix: string;
  opts: JobsOptions;
}

/**
 * Queues the job unless its flag is up; true when it did. A failure to queue takes the flag down
 * again — with no job behind it, it would refuse every wake-up until it expired.
 */
export async function addFlaggedJob(redis: RedisConnection, j: FlaggedJob): Promise<boolean> {
  if ((await redis.set(j.flag, '1', 'EX', j.flagSeconds, 'NX')) !== 'OK') return false;
  try {
    const n = await redis.incr(j.seq);
    await j.queue.add(j.name, j.data, { ...j.opts, jobId: `${j.idPrefix}-${n}` });
  } catch (err) {
    await redis.del(j.flag).catch(() => undefined);
    throw err;
  }
  return true;
}

/**
 * Start-up recovery: a flag a process left when it died between raising it and queueing the job
 * names a job that does not exist; it goes, so the job can be queued.
 */
export async function dropOrphanFlag(
  redis: RedisConnection,
  j: Pick<FlaggedJob, 'flag' | 'seq' | 'queue' | 'idPrefix'>,
) {
  if (!(await redis.exists(j.flag))) return;
  const n = await redis.get(j.seq);
  if (!n || !(await j.queue.getJob(`${j.idPrefix}-${n}`))) await redis.del(j.flag);
}
