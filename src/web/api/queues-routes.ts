import type { Hono } from 'hono';
import type { Ctx } from '../../context.ts';
import type { ApiRoutes } from '../app.ts';

const STATES = ['waiting', 'active', 'delayed', 'failed', 'completed', 'paused'] as const;

/** `GET /api/queues`: job counts per BullMQ queue, for the panel's dashboard. */
export function queuesRoutes(ctx: Ctx): ApiRoutes {
  return (api: Hono) => {
    api.get('/queues', async (c) => {
      const queues = await Promise.all(
        Object.entries(ctx.queues).map(async ([name, queue]) => ({
          name,
          ...(await queue.getJobCounts(...STATES)),
        })),
      );
      return c.json({ queues });
    });
  };
}
