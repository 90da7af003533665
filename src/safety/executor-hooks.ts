import { randomUUID } from 'node:crypto';
import type { Ctx } from '../context.ts';
import { type GateVerdict, stopTurn } from '../session/turn-outcome.ts';
import { noteActivity } from './activity.ts';
import { takeBreakerSlot } from './circuit-breaker.ts';

type Gate = () => Promise<GateVerdict>;

/** The watchdog's record that a ticket's executor took a step now. */
export async function noteStep(ctx: Ctx, ticketId: string): Promise<void> {
  await noteActivity(ctx, ticketId, ctx.now());
}

/**
 * An executor turn's gates (issue 8), wrapped around its pause gate: every model request and tool
 * call is a step the watchdog sees, and every model request counts against the ticket's circuit
 * breaker — over the limit the ticket is paused, so the turn stops as a paused one does.
 */
export function safetyHooks(ctx: Ctx, ticketId: string, pauseGate: Gate) {
  return {
    beforeModelRequest: async (): Promise<GateVerdict> => {
      const v = await pauseGate();
      if (!v.ok) return v;
      await noteStep(ctx, ticketId);
      return (await takeBreakerSlot(ctx, ticketId, 'model_requests', randomUUID())) ? v : stopTurn('paused');
    },
    beforeToolCall: async (): Promise<GateVerdict> => {
      const v = await pauseGate();
      if (v.ok) await noteStep(ctx, ticketId);
      return v;
    },
  };
}
