import { z } from 'zod';
import { PROFILES } from '../artifacts/artifact.ts';
import { OriginSchema } from '../cards/card.ts';
import type { Ticket, TicketState } from './ticket.ts';

/** A ticket's state as stored (issue 20: read through zod, never cast). */
export const TicketStateSchema = z.enum([
  'open',
  'working',
  'waiting',
  'done',
  'cancelled',
]) satisfies z.ZodType<TicketState>;

const MatchedRuleSchema = z.object({
  id: z.string(),
  name: z.string(),
  instruction: z.string(),
  crew: z.string().exactOptional(),
  profile: z.enum(PROFILES).exactOptional(),
  openPr: z.boolean().exactOptional(),
  maxRequests: z.number().exactOptional(),
});

const TicketCrewSchema = z.object({
  name: z.string(),
  from: z.enum(['routing', 'policy', 'default']),
  role: z.string().exactOptional(),
  profile: z.string().exactOptional(),
  topology: z.string().exactOptional(),
  revision: z.number().exactOptional(),
});

/**
 * The ticket record, its hash's fields decoded (each field is JSON). The `satisfies` keeps it and
 * the `Ticket` interface one shape: a field added to one and not the other fails the type check.
 */
export const TicketSchema = z.object({
  id: z.string(),
  title: z.string(),
  state: TicketStateSchema,
  openedBy: z.string(),
  origin: OriginSchema,
  conversation: z.string(),
  requester: z.object({ id: z.string(), name: z.string().exactOptional() }),
  repo: z.string().exactOptional(),
  inferred: z.object({ rules: z.array(MatchedRuleSchema) }).exactOptional(),
  crew: TicketCrewSchema.exactOptional(),
  createdAt: z.number(),
  updatedAt: z.number(),
}) satisfies z.ZodType<Ticket, unknown>;
