import { Worker } from 'bullmq';
import type { Ctx } from '../context.ts';
import { workerOptions } from '../store/worker-options.ts';
import { inJobSpan } from '../tracing/job-context.ts';
import { routeCard } from './route-card.ts';

/** Places each stored card (one job per card, id = card id). */
export function startRouteWorker(ctx: Ctx, concurrency: number): Worker {
  const worker = new Worker(
    'route',
    (job) => {
      const cardId = (job.data as { cardId: string }).cardId;
      return inJobSpan(job, 'card.route', { 'switchyard.card.id': cardId }, async (span) => {
        const outcome = await routeCard(ctx, cardId);
        span.setAttribute('switchyard.route.outcome', outcome.kind);
        return outcome;
      });
    },
    workerOptions(ctx, concurrency),
  );
  worker.on('completed', () => ctx.metrics.jobs.inc({ queue: 'route', outcome: 'completed' }));
  worker.on('failed', (job, err) => {
    ctx.metrics.jobs.inc({ queue: 'route', outcome: 'failed' });
    ctx.log.error({ err, cardId: job?.data?.cardId }, 'routing failed');
  });
  return worker;
}
