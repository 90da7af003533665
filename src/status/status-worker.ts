import { Worker } from 'bullmq';
import type { Ctx } from '../context.ts';
import { workerOptions } from '../store/worker-options.ts';
import { inJobSpan } from '../tracing/job-context.ts';
import { syncStatus } from './sync-status.ts';

/** Starts the status worker: each job brings one ticket's status message up to date (issue 9). */
export function startStatusWorker(ctx: Ctx, concurrency = 4): Worker {
  const worker = new Worker(
    'status',
    (job) => {
      const ticketId = (job.data as { ticketId: string }).ticketId;
      return inJobSpan(job, 'status.sync', { 'switchyard.ticket.id': ticketId }, () =>
        syncStatus(ctx, ticketId),
      );
    },
    workerOptions(ctx, concurrency),
  );
  worker.on('error', (err) => ctx.log.error({ err }, 'status worker error'));
  return worker;
}
