import { z } from 'zod';
import { TicketIdSchema } from '../../tickets/ticket-id.ts';

const card = z.string().describe('the candidate card id');
const note = z.string().optional().describe('routing note for the executor, at most 30 words');

/**
 * One routing decision of `orchestrator_route` (R-B1), written once: the tool's parameters, the
 * JSON Schema the model is shown and the `Decision` type all come from here. `attach` requires the
 * ticket the card explicitly references; only `open` carries a title, policy rules and a crew.
 */
export const DecisionSchema = z.discriminatedUnion('action', [
  z.object({
    card,
    action: z.literal('open'),
    note,
    title: z.string().max(120).optional().describe('a short ticket title'),
    rules: z
      .array(z.string())
      .optional()
      .describe('without an explicit request: the enabled policy rule ids it matches'),
    crew: z
      .string()
      .optional()
      .describe(
        'the crew to run it (orchestrator_read artifacts lists them); a ticket opened under rules runs its rule’s crew instead',
      ),
  }),
  z.strictObject({
    card,
    action: z.literal('attach'),
    ticket: TicketIdSchema.describe('the ticket the card explicitly references'),
    note,
  }),
  z.strictObject({ card, action: z.literal('ignore'), note }),
]);
export type Decision = z.infer<typeof DecisionSchema>;
export type OpenDecision = Extract<Decision, { action: 'open' }>;
export type AttachDecision = Extract<Decision, { action: 'attach' }>;
