import { randomUUID } from 'node:crypto';
import type { Ctx } from '../context.ts';
import type { ModelUsage } from '../session/model-reply.ts';
import { type GateVerdict, stopTurn } from '../session/turn-outcome.ts';
import type { Spend } from '../stats/daily-counts.ts';
import type { Ticket } from '../tickets/ticket.ts';
import { getTicket } from '../tickets/ticket-store.ts';
import { noteActivity } from './activity.ts';
import { ticketSpend, withinBudget } from './budget-gate.ts';
import { takeBreakerSlot } from './circuit-breaker.ts';

type Gate = () => Promise<GateVerdict>;

/** The watchdog's record that a ticket's executor took a step now. */
export async function noteStep(ctx: Ctx, ticketId: string): Promise<void> {
  await noteActivity(ctx, ticketId, ctx.now());
}

/**
 * An executor turn's gates (issue 8), wrapped around its pause gate: every model request and tool
 * call is a step the watchdog sees, and every model request counts against the ticket's circuit
 * breaker — over the limit the ticket is paused, so the turn stops as a paused one does. Issue 33
 * item 5: every model request is checked against the ticket's and the day's budgets (spent: paused
 * the same way) and its cost is charged to the ticket, its repository and its conversation.
 */
export function safetyHooks(ctx: Ctx, ticketId: string, pauseGate: Gate) {
  // Read before each request: the repository may be chosen during the turn.
  let ticket: Ticket | undefined;
  return {
    beforeModelRequest: async (): Promise<GateVerdict> => {
      const v = await pauseGate();
      if (!v.ok) return v;
      await noteStep(ctx, ticketId);
      if (!(await withinBudget(ctx, ticketId))) return stopTurn('paused');
      ticket = await getTicket(ctx, ticketId);
      return (await takeBreakerSlot(ctx, ticketId, 'model_requests', randomUUID())) ? v : stopTurn('paused');
    },
    beforeToolCall: async (): Promise<GateVerdict> => {
      const v = await pauseGate();
      if (v.ok) await noteStep(ctx, ticketId);
      return v;
    },
    spendOf: (model: string, usage: ModelUsage, at: number): Spend | undefined =>
      ticket ? ticketSpend(ctx, ticket)(model, usage, at) : undefined,
  };
}
