import type { Ctx } from '../context.ts';
import { languageForTicket } from '../i18n/choose-language.ts';
import { hostText } from '../i18n/host-text.ts';
import type { ModelUsage } from '../session/model-reply.ts';
import { budgetsNow, noteBudgetHold } from '../stats/budgets.ts';
import { costNanos, nanosOf, priceFor, pricesFrom, usdOf } from '../stats/cost.ts';
import { dayOf, type Spend } from '../stats/daily-counts.ts';
import { dayCostNanos, ticketCostNanos } from '../stats/daily-stats.ts';
import { pauseTicket } from '../tickets/pause.ts';
import type { Ticket } from '../tickets/ticket.ts';
import { getTicket, setTicketState } from '../tickets/ticket-store.ts';
import { tellRequester } from './tell-requester.ts';

/** A spent budget: which, its limit and what was spent (USD). */
export interface Overspent {
  scope: 'ticket' | 'day';
  limitUsd: number;
  spentUsd: number;
}

/**
 * Issue 33 item 5: the first budget a ticket's next model request would exceed — the ticket's own
 * (its executor's requests) or the day's (every request of the UTC day `at` falls in). 0 is none.
 */
export async function overBudget(ctx: Ctx, ticketId: string, at: number): Promise<Overspent | undefined> {
  const budgets = await budgetsNow(ctx);
  if (budgets.ticketUsd > 0) {
    const spent = await ticketCostNanos(ctx, ticketId);
    if (spent >= nanosOf(budgets.ticketUsd))
      return { scope: 'ticket', limitUsd: budgets.ticketUsd, spentUsd: usdOf(spent) };
  }
  return overDay(ctx, budgets.dailyUsd, at);
}

/** The day's budget, when every model request of `at`'s UTC day has spent it (the main session's gate). */
export async function overDayBudget(ctx: Ctx, at: number): Promise<Overspent | undefined> {
  return overDay(ctx, (await budgetsNow(ctx)).dailyUsd, at);
}

async function overDay(ctx: Ctx, dailyUsd: number, at: number): Promise<Overspent | undefined> {
  if (dailyUsd <= 0) return undefined;
  const spent = await dayCostNanos(ctx, at);
  return spent >= nanosOf(dailyUsd)
    ? { scope: 'day', limitUsd: dailyUsd, spentUsd: usdOf(spent) }
    : undefined;
}

const money = (usd: number): string => usd.toFixed(usd < 1 ? 4 : 2);

/**
 * Checked before every executor model request: over a budget, the ticket is paused (`via:
 * 'budget'`, noted for `releaseBudgetHolds`) and the requester told once — the message's key names
 * the budget and, for the day's, the day, so a re-pause after a person's /resume sends nothing new.
 * True: the request may go.
 */
export async function withinBudget(ctx: Ctx, ticketId: string): Promise<boolean> {
  const at = ctx.now();
  const over = await overBudget(ctx, ticketId, at);
  if (!over) return true;
  const detail = `${over.scope} budget $${over.limitUsd} spent ($${money(over.spentUsd)})`;
  const paused = await pauseTicket(ctx, ticketId, { by: 'budget', at, via: 'budget' }, detail);
  if (!paused) return false;
  await noteBudgetHold(ctx, ticketId, at);
  ctx.log.warn({ ticketId, scope: over.scope, limitUsd: over.limitUsd }, 'budget spent: ticket paused');
  const ticket = await getTicket(ctx, ticketId);
  if (!ticket) return false;
  await setTicketState(ctx, ticketId, 'waiting');
  const lang = await languageForTicket(ctx, ticket);
  const vars = { ticket: ticketId, limit: money(over.limitUsd), spent: money(over.spentUsd) };
  const key = `budget:${ticketId}:${over.scope}:${over.scope === 'day' ? `${dayOf(at)}:` : ''}${over.limitUsd}`;
  await tellRequester(
    ctx,
    ticket,
    { key, kind: 'budget' },
    hostText(lang, over.scope === 'ticket' ? 'budget.ticket' : 'budget.day', vars),
  );
  return false;
}

/** What a request cost, charged to no ticket (a main-session turn serves many): the day's charts only. */
export function requestSpend(ctx: Ctx) {
  const overrides = pricesFrom(ctx.config.LLM_PRICES);
  return (model: string, usage: ModelUsage, at: number): Spend => ({
    nanos: costNanos(priceFor(overrides, ctx.config.llmProvider, model), usage, at),
  });
}

/**
 * What a ticket's executor request cost (issue 33 item 5), charged to the ticket, its repository
 * and its conversation: the price of the configured provider and the request's model
 * (`LLM_PRICES` over `src/stats/prices.ts`).
 */
export function ticketSpend(ctx: Ctx, ticket: Ticket) {
  const overrides = pricesFrom(ctx.config.LLM_PRICES);
  return (model: string, usage: ModelUsage, at: number): Spend => ({
    nanos: costNanos(priceFor(overrides, ctx.config.llmProvider, model), usage, at),
    ticketId: ticket.id,
    repo: ticket.repo,
    chat: ticket.conversation,
  });
}
