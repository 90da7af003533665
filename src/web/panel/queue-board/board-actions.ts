import type { BeforeHook, HookContext } from '@bull-board/api/typings/app';

/**
 * The bull-board writes the panel takes, by bull-board's route: reading failed jobs and their
 * errors, retrying, removing (cleaning), promoting, rescheduling and reprioritising jobs, and
 * pausing and resuming queues. Any other write, including one a later bull-board adds, is refused.
 */
const WRITES_TAKEN = new Set([
  'put /api/queues/pause',
  'put /api/queues/resume',
  'put /api/queues/:queueName/pause',
  'put /api/queues/:queueName/resume',
  'put /api/queues/:queueName/retry/:queueStatus',
  'put /api/queues/:queueName/clean/:queueStatus',
  'put /api/queues/:queueName/promote',
  'put /api/queues/:queueName/:jobId/retry',
  'put /api/queues/:queueName/:jobId/clean',
  'put /api/queues/:queueName/:jobId/promote',
  'patch /api/queues/:queueName/:jobId/delay',
  'patch /api/queues/:queueName/:jobId/priority',
]);

/**
 * Why the known others are refused: each would add or rewrite jobs around the product's own
 * checks (idempotency keys, pauses, the outbox's caps), drop work no one could find again, or
 * change what the workers own (`src/safety/safety-jobs.ts` upserts the schedules at start-up).
 */
const WHY_REFUSED: Record<string, string> = {
  'post /api/queues/:queueName/add': 'jobs are added by the product, never by hand',
  'patch /api/queues/:queueName/:jobId/update-data': "a job's data is not edited by hand",
  'put /api/queues/:queueName/empty':
    'emptying a queue drops waiting work; clean failed or completed jobs instead',
  'put /api/queues/:queueName/obliterate': 'a queue is never obliterated from the panel',
  'put /api/queues/:queueName/concurrency': 'concurrency is set by the workers',
  'put /api/queues/:queueName/rate-limit': 'rate limits are set by the workers',
  'put /api/queues/:queueName/rate-limit/release': 'rate limits are set by the workers',
  'put /api/queues/:queueName/job-schedulers/:schedulerId/remove': 'schedules are owned by the workers',
  'patch /api/queues/:queueName/job-schedulers/:schedulerId': 'schedules are owned by the workers',
  'put /api/queues/:queueName/job-schedulers/:schedulerId/run': 'schedules are owned by the workers',
};

const RETRY_ONE = 'put /api/queues/:queueName/:jobId/retry';
const RETRY_ALL = 'put /api/queues/:queueName/retry/:queueStatus';

/** Whether a retry would run a job that already finished: a turn or a routing decision twice. */
async function retriesCompleted(key: string, { request }: HookContext): Promise<boolean> {
  if (key === RETRY_ALL) return request.params.queueStatus === 'completed';
  if (key !== RETRY_ONE) return false;
  const queue = request.queues.get(request.params.queueName ?? '');
  const job = await queue?.getJob(request.params.jobId ?? '');
  return (await job?.getState()) === 'completed';
}

/** bull-board's `before` hook: writes not taken are a 403 with the reason; completed-job retries a 409. */
export const boardActionPolicy: BeforeHook = async (context) => {
  if (context.method === 'get') return;
  const key = `${context.method} ${context.route}`;
  if (!WRITES_TAKEN.has(key)) {
    const why = WHY_REFUSED[key] ?? 'the panel does not offer this action';
    return { allow: false, status: 403, message: `refused by Switchyard: ${why}` };
  }
  if (await retriesCompleted(key, context))
    return {
      allow: false,
      status: 409,
      message: 'refused by Switchyard: only failed jobs are retried (a completed one would run twice)',
    };
};
