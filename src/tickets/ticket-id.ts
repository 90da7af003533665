import { z } from 'zod';

/**
 * What a ticket id looks like (`T` and its sequence number, `createTicket`). Checked where an id
 * comes from outside — an API path, a tool argument — before it names a key (issue 31: `T1:cards`
 * named another record's key and answered 500).
 */
export const TICKET_ID = /^T\d{1,15}$/;

/** A ticket id as zod checks it in a tool's or route's input; the message is what a caller reads. */
export const TicketIdSchema = z
  .string()
  .regex(TICKET_ID, 'a ticket id is T followed by its number, like T12');

export const isTicketId = (id: string): boolean => TICKET_ID.test(id);
