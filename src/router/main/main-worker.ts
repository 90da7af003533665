import { Worker } from 'bullmq';
import type { Runtime } from '../../runtime.ts';
import { workerOptions } from '../../store/worker-options.ts';
import { inJobSpan } from '../../tracing/job-context.ts';
import { runMainTurn } from './main-turn.ts';

/** Runs main-session turns; the deployment-wide lock keeps them one at a time. */
export function startMainWorker(rt: Runtime): Worker {
  const { ctx } = rt;
  const worker = new Worker(
    'main',
    (job, token) =>
      inJobSpan(job, 'main.turn', {}, async (span) => {
        const outcome = await runMainTurn(rt, job, token);
        span.setAttribute('switchyard.turn.outcome', outcome.kind);
        return outcome;
      }),
    workerOptions(ctx, 1),
  );
  worker.on('completed', () => ctx.metrics.jobs.inc({ queue: 'main', outcome: 'completed' }));
  worker.on('failed', (job, err) => {
    ctx.metrics.jobs.inc({ queue: 'main', outcome: 'failed' });
    ctx.log.error({ err, jobId: job?.id }, 'main turn failed');
  });
  return worker;
}
