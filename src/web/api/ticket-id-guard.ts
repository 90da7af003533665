import type { MiddlewareHandler } from 'hono';
import { HttpError } from '../../errors/http-error.ts';
import { isTicketId } from '../../tickets/ticket-id.ts';

/**
 * Issue 31: every `/api/tickets/:id…` route answers 400 for an id that is not a ticket id, before
 * any handler builds a key from it (`T1:cards` named another record and answered 500).
 */
export const ticketIdGuard: MiddlewareHandler = async (c, next) => {
  const id = c.req.param('id') ?? '';
  if (!isTicketId(id))
    throw new HttpError(400, 'bad_ticket_id', 'a ticket id is T followed by its number, like T12');
  await next();
};
