import { z } from 'zod';
import { defineTool, toolError, toolOk } from '../../session/tool.ts';
import { PLAN_STATUSES, saveTicketPlan } from '../plan/plan-record.ts';
import type { TurnScope } from '../turn-scope.ts';

/** The most steps a plan holds, and the longest step. */
const MAX_STEPS = 30;
const MAX_STEP_CHARS = 300;

/**
 * `update_plan({ steps: [{ step, status }] })` (issue 48 item 4, Codex's `update_plan`): the
 * executor's plan, replaced whole by each call. Stored on the ticket, so a person sees it (the
 * ticket page, the live status card) and a compaction puts its newest state back in view.
 */
export function updatePlanTool(scope: TurnScope) {
  const { ctx } = scope.rt;
  return defineTool({
    name: 'update_plan',
    description:
      'Keep your plan for work of several steps: the whole list each time, each step pending, in_progress or completed, at most one in_progress. People see it on the ticket, and it stays in view after older steps are summarised.',
    parameters: z.object({
      steps: z
        .array(z.object({ step: z.string().min(1).max(MAX_STEP_CHARS), status: z.enum(PLAN_STATUSES) }))
        .min(1)
        .max(MAX_STEPS),
    }),
    async run({ steps }) {
      const doing = steps.filter((s) => s.status === 'in_progress');
      if (doing.length > 1)
        return toolError(
          `refused: ${doing.length} steps are in_progress; mark one in_progress and the others pending or completed`,
        );
      await saveTicketPlan(ctx, scope.ticket.id, { steps, at: ctx.now() });
      const done = steps.filter((s) => s.status === 'completed').length;
      const now = doing[0] ? `; now: ${doing[0].step}` : '';
      return toolOk(`plan updated: ${done} of ${steps.length} steps completed${now}`);
    },
  });
}
