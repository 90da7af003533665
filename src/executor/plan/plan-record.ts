import { z } from 'zod';
import type { Ctx } from '../../context.ts';
import { parseRecord } from '../../store/parse-record.ts';

type C = Pick<Ctx, 'redis' | 'keys' | 'log'>;

export const PLAN_STATUSES = ['pending', 'in_progress', 'completed'] as const;

/** One step of the executor's plan (issue 48 item 4, Codex's `update_plan`). */
export interface PlanStep {
  step: string;
  status: (typeof PLAN_STATUSES)[number];
}

/** The ticket's plan as the executor last set it, and when. */
export interface TicketPlan {
  steps: PlanStep[];
  at: number;
}

export const PlanStepSchema = z.object({
  step: z.string(),
  status: z.enum(PLAN_STATUSES),
}) satisfies z.ZodType<PlanStep, unknown>;

const TicketPlanSchema = z.object({
  steps: z.array(PlanStepSchema),
  at: z.number(),
}) satisfies z.ZodType<TicketPlan, unknown>;

/** Stores the ticket's plan, replacing the one before (the newest call is the plan). */
export async function saveTicketPlan(ctx: C, ticketId: string, plan: TicketPlan): Promise<void> {
  await ctx.redis.set(ctx.keys.ticketPlan(ticketId), JSON.stringify(TicketPlanSchema.parse(plan)));
}

/** The ticket's plan, or undefined before the executor set one. */
export async function ticketPlan(ctx: C, ticketId: string): Promise<TicketPlan | undefined> {
  const key = ctx.keys.ticketPlan(ticketId);
  const raw = await ctx.redis.get(key);
  return raw === null ? undefined : parseRecord(ctx, TicketPlanSchema, raw, key);
}
