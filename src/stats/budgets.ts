import { z } from 'zod';
import type { Ctx } from '../context.ts';
import { encodeRecord, parseRecord } from '../store/parse-record.ts';

type BudgetCtx = Pick<Ctx, 'redis' | 'keys' | 'log' | 'config'>;

/** Issue 33 item 5: the budgets in force, USD; 0 is none. */
export interface Budgets {
  ticketUsd: number;
  dailyUsd: number;
}

/** Budgets set through the API (`PUT /api/budgets`), and who set them. */
export interface StoredBudgets extends Budgets {
  by: string;
  at: number;
}

const usd = z.number().min(0).max(1_000_000);
const StoredBudgetsSchema = z.object({
  ticketUsd: usd,
  dailyUsd: usd,
  by: z.string(),
  at: z.number(),
}) satisfies z.ZodType<StoredBudgets, unknown>;

/** The budgets an operator may send: either or both, each in USD; nothing else. */
export const BudgetsInputSchema = z
  .strictObject({ ticketUsd: usd.optional(), dailyUsd: usd.optional() })
  // A misspelt name (`ticket_usd`) is refused by name, and a body naming neither changes nothing.
  .refine((b) => b.ticketUsd !== undefined || b.dailyUsd !== undefined, {
    error: 'name ticketUsd, dailyUsd or both',
  });

/** The budgets in force: those set through the API, else `TICKET_BUDGET_USD` / `DAILY_BUDGET_USD`. */
export async function budgetsNow(ctx: BudgetCtx): Promise<Budgets & { set?: StoredBudgets }> {
  const key = ctx.keys.budgets();
  const raw = await ctx.redis.get(key);
  if (raw) {
    const set = parseRecord(ctx, StoredBudgetsSchema, raw, key);
    return { ticketUsd: set.ticketUsd, dailyUsd: set.dailyUsd, set };
  }
  return { ticketUsd: ctx.config.TICKET_BUDGET_USD, dailyUsd: ctx.config.DAILY_BUDGET_USD };
}

/** Stores new budgets (either left out keeps the one in force). */
export async function setBudgets(
  ctx: BudgetCtx,
  input: z.infer<typeof BudgetsInputSchema>,
  by: string,
  at: number,
): Promise<Budgets> {
  const now = await budgetsNow(ctx);
  const next: StoredBudgets = {
    ticketUsd: input.ticketUsd ?? now.ticketUsd,
    dailyUsd: input.dailyUsd ?? now.dailyUsd,
    by,
    at,
  };
  const key = ctx.keys.budgets();
  await ctx.redis.set(key, encodeRecord(ctx, StoredBudgetsSchema, next, key));
  return next;
}

/** Notes a ticket paused because a budget was spent, for the release to look at again. */
export async function noteBudgetHold(ctx: BudgetCtx, ticketId: string, at: number): Promise<void> {
  await ctx.redis.zadd(ctx.keys.budgetHolds(), at, ticketId);
}

/** The tickets paused for budget, oldest first. */
export async function budgetHolds(ctx: BudgetCtx): Promise<string[]> {
  return ctx.redis.zrange(ctx.keys.budgetHolds(), 0, 499);
}

export async function dropBudgetHold(ctx: BudgetCtx, ticketId: string): Promise<void> {
  await ctx.redis.zrem(ctx.keys.budgetHolds(), ticketId);
}

/**
 * Notes that the main session waits for the day's budget (its candidates and notices wait with it);
 * true when it was not waiting yet, so the wait is logged once.
 */
export async function noteMainBudgetHold(ctx: BudgetCtx, at: number): Promise<boolean> {
  return (await ctx.redis.set(ctx.keys.budgetMainHold(), String(at), 'NX')) === 'OK';
}

/** Since when the main session waits for the day's budget, or undefined. */
export async function mainBudgetHold(ctx: BudgetCtx): Promise<number | undefined> {
  const raw = await ctx.redis.get(ctx.keys.budgetMainHold());
  return raw === null ? undefined : Number(raw);
}

/** Ends the main session's wait; true when it was waiting (its turn is to be queued). */
export async function dropMainBudgetHold(ctx: BudgetCtx): Promise<boolean> {
  return (await ctx.redis.del(ctx.keys.budgetMainHold())) > 0;
}
