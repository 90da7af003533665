import { Worker } from 'bullmq';
import type { Runtime } from '../runtime.ts';
import { workerOptions } from '../store/worker-options.ts';
import { inJobSpan } from '../tracing/job-context.ts';
import { runExecutorTurn } from './executor-turn.ts';

/** Runs executor turns; any number of worker processes share them, one turn per ticket at a time. */
export function startExecutorWorker(rt: Runtime, concurrency: number): Worker {
  const { ctx } = rt;
  const worker = new Worker(
    'executor',
    (job, token) => {
      const ticketId = (job.data as { ticketId: string }).ticketId;
      return inJobSpan(job, 'executor.turn', { 'switchyard.ticket.id': ticketId }, async (span) => {
        const outcome = await runExecutorTurn(rt, job, token);
        span.setAttribute('switchyard.turn.outcome', outcome.kind);
        return outcome;
      });
    },
    workerOptions(ctx, concurrency),
  );
  worker.on('completed', () => ctx.metrics.jobs.inc({ queue: 'executor', outcome: 'completed' }));
  worker.on('failed', (job, err) => {
    ctx.metrics.jobs.inc({ queue: 'executor', outcome: 'failed' });
    ctx.log.error({ err, ticketId: job?.data?.ticketId }, 'executor turn failed');
  });
  return worker;
}
