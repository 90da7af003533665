import type { Ctx } from '../context.ts';
import { mergeExpositions } from './merge-exposition.ts';

/**
 * Every queue's depth by state and its completed and failed totals, from BullMQ's own
 * `exportPrometheusMetrics` (issue 17), merged so each metric family is declared once.
 */
export async function queueMetrics(ctx: Pick<Ctx, 'queues'>): Promise<string> {
  const queues = Object.values(ctx.queues);
  return mergeExpositions(await Promise.all(queues.map((q) => q.exportPrometheusMetrics())));
}
