import type { Ctx } from '../context.ts';
import { resumeTicketAndWake } from '../router/apply-command.ts';
import { budgetHolds, dropBudgetHold } from '../stats/budgets.ts';
import { getPause } from '../tickets/pause.ts';
import { overBudget } from './budget-gate.ts';
import { releaseMainBudgetHold } from './main-budget.ts';

/**
 * Issue 33 item 5: looks again at every ticket paused because a budget was spent, and resumes
 * (and wakes) each that fits now — the budget was raised, or a new UTC day began. A ticket a person
 * resumed meanwhile, or paused for another reason, is only taken off the list; a main session that
 * waited for the day's budget gets its turn queued. Run by the safety
 * queue every `BUDGET_CHECK_MS` and at once after `PUT /api/budgets`. Returns the tickets resumed.
 */
export async function releaseBudgetHolds(ctx: Ctx): Promise<string[]> {
  const resumed: string[] = [];
  for (const id of await budgetHolds(ctx)) {
    const pause = await getPause(ctx, id);
    if (pause?.via !== 'budget') {
      await dropBudgetHold(ctx, id);
      continue;
    }
    const at = ctx.now();
    if (await overBudget(ctx, id, at)) continue;
    // Issue 46 item 6: lifted only if it is still the budget's pause (one script with the lift): a
    // person's /pause or a stop that took its place since the read above holds.
    const lifted = await resumeTicketAndWake(ctx, id, { by: 'budget', at, via: 'budget' }, 'budget');
    await dropBudgetHold(ctx, id);
    if (lifted) resumed.push(id);
  }
  if (resumed.length) ctx.log.info({ tickets: resumed }, 'budget allows again: tickets resumed');
  // The main session too: the cards that waited for the day's budget are routed now.
  await releaseMainBudgetHold(ctx);
  return resumed;
}
