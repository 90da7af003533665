import type { Ctx } from '../context.ts';
import { scheduleMainTurn } from '../router/candidates.ts';
import { dropMainBudgetHold, mainBudgetHold, noteMainBudgetHold } from '../stats/budgets.ts';
import { overDayBudget } from './budget-gate.ts';

/**
 * Issue 33 item 5: whether the main session may make a model request now — checked before each
 * turn takes its candidates and before every request of a turn. Over the day's budget it may not:
 * the wait is noted (and logged once), and the cards and notices stay where they wait until
 * `releaseMainBudgetHold` finds the budget raised or a new UTC day begun. No decision is lost.
 */
export async function mainWithinBudget(ctx: Ctx): Promise<boolean> {
  const at = ctx.now();
  const over = await overDayBudget(ctx, at);
  if (!over) return true;
  if (await noteMainBudgetHold(ctx, at))
    ctx.log.warn(
      { limitUsd: over.limitUsd, spentUsd: over.spentUsd },
      "day's budget spent: routing waits for it to be raised or the next day",
    );
  return false;
}

/** Whether the main session's wait for the budget is still noted (a release drops it). */
export async function mainHeldForBudget(ctx: Ctx): Promise<boolean> {
  return (await mainBudgetHold(ctx)) !== undefined;
}

/** Queues the main session's turn again once the day's budget allows it; true when it did. */
export async function releaseMainBudgetHold(ctx: Ctx): Promise<boolean> {
  if ((await mainBudgetHold(ctx)) === undefined) return false;
  if (await overDayBudget(ctx, ctx.now())) return false;
  if (!(await dropMainBudgetHold(ctx))) return false;
  ctx.log.info('budget allows again: routing goes on');
  await scheduleMainTurn(ctx, 0);
  return true;
}
