import type { Hono } from 'hono';
import { z } from 'zod';
import type { Ctx } from '../../context.ts';
import { HttpError } from '../../errors/http-error.ts';
import { retryDelivery } from '../../outbox/delivery-trouble.ts';
import { getTicket } from '../../tickets/ticket-store.ts';
import type { ApiRoutes } from '../app.ts';
import { readBody } from './read-body.ts';
import { whoOf } from './request-meta.ts';
import { ticketIdGuard } from './ticket-id-guard.ts';

const RetryBody = z.object({ key: z.string().min(1).max(500) });

/**
 * `POST /api/tickets/:id/deliveries/retry` `{ key }`: sends one of the ticket's failed deliveries
 * again under its idempotency key (nothing goes out twice), or tries a retrying one now.
 * Answers `{ key, retried: 'failed' | 'retrying' }`; 404 for a key not the ticket's, 409 when the
 * delivery was sent or has not failed.
 */
export function deliveryRetryRoutes(ctx: Ctx): ApiRoutes {
  return (api: Hono) => {
    api.post('/tickets/:id/deliveries/retry', ticketIdGuard, async (c) => {
      const id = c.req.param('id');
      if (!(await getTicket(ctx, id))) throw new HttpError(404, 'not_found', `no ticket ${id}`);
      const { key } = await readBody(c, RetryBody);
      const done = await retryDelivery(ctx, id, key);
      ctx.log.info({ ticketId: id, key, by: whoOf(c), retried: done.retried }, 'delivery retried via API');
      return c.json(done);
    });
  };
}
