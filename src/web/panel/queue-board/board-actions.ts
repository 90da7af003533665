import type { BeforeHook, HookContext } from '@bull-board/api/typings/app';

/**
 * bull-board actions the panel refuses, by bull-board's route: each would add or rewrite jobs
 * around the product's own checks (idempotency keys, pauses, the outbox's caps), drop work no
 * one could find again, or change the schedules the workers own (`src/safety/safety-jobs.ts`).
 * Reading, retrying a failed job, removing (cleaning) jobs, promoting and pausing stay.
 */
const REFUSED: Record<string, string> = {
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
  'put /api/queues/:queueName/:jobId/remove-unprocessed-children': 'the product has no job flows to prune',
};

const RETRY_ONE = 'put /api/queues/:queueName/:jobId/retry';
const RETRY_ALL = 'put /api/queues/:queueName/retry/:queueStatus';

/** Whether a retry would run a job that already finished: a turn or a routing decision twice. */
async function retriesCompleted({ route, method, request }: HookContext): Promise<boolean> {
  const key = `${method} ${route}`;
  if (key === RETRY_ALL) return request.params.queueStatus === 'completed';
  if (key !== RETRY_ONE) return false;
  const queue = request.queues.get(request.params.queueName ?? '');
  const job = await queue?.getJob(request.params.jobId ?? '');
  return (await job?.getState()) === 'completed';
}

/** bull-board's `before` hook: refuses the actions above with 403 and completed-job retries with 409. */
export const boardActionPolicy: BeforeHook = async (context) => {
  const why = REFUSED[`${context.method} ${context.route}`];
  if (why) return { allow: false, status: 403, message: `refused by Switchyard: ${why}` };
  if (await retriesCompleted(context))
    return {
      allow: false,
      status: 409,
      message: 'refused by Switchyard: only failed jobs are retried (a completed one would run twice)',
    };
};
