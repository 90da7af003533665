import type { Hono } from 'hono';
import type { Ctx } from '../../context.ts';
import { releaseBudgetHolds } from '../../safety/budget-release.ts';
import {
  BudgetsInputSchema,
  budgetHolds,
  budgetsNow,
  mainBudgetHold,
  setBudgets,
} from '../../stats/budgets.ts';
import { PRICES_READ_ON } from '../../stats/prices.ts';
import type { ApiRoutes } from '../app.ts';
import { readBody } from './read-body.ts';
import { whoOf } from './request-meta.ts';

/**
 * Issue 33 item 5: `GET /api/budgets` (the budgets in force — USD, 0 is none — where they come
 * from, the tickets paused for budget, since when routing waits for the day's budget — `mainHeld`,
 * null while it does not — and the date the built-in prices were read) and `PUT
 * /api/budgets` (`{ ticketUsd?, dailyUsd? }`: stored over `TICKET_BUDGET_USD` / `DAILY_BUDGET_USD`;
 * tickets the new budgets allow go on at once, listed as `resumed`).
 */
export function budgetRoutes(ctx: Ctx): ApiRoutes {
  const view = async () => {
    const b = await budgetsNow(ctx);
    return {
      ticketUsd: b.ticketUsd,
      dailyUsd: b.dailyUsd,
      from: b.set ? { by: b.set.by, at: b.set.at } : 'config',
      held: await budgetHolds(ctx),
      mainHeld: await mainHeldView(ctx),
      pricesReadOn: PRICES_READ_ON,
    };
  };
  return (api: Hono) => {
    api.get('/budgets', async (c) => c.json(await view()));
    api.put('/budgets', async (c) => {
      const input = await readBody(c, BudgetsInputSchema);
      await setBudgets(ctx, input, whoOf(c), ctx.now());
      ctx.log.info({ by: whoOf(c), ...input }, 'budgets set via API');
      const resumed = await releaseBudgetHolds(ctx);
      return c.json({ ...(await view()), resumed });
    });
  };
}

async function mainHeldView(ctx: Ctx): Promise<{ since: number } | null> {
  const since = await mainBudgetHold(ctx);
  return since === undefined ? null : { since };
}
