import type { Ctx } from '../context.ts';
import { scheduleTurn } from '../executor/schedule-turn.ts';
import { isPaused } from '../tickets/pause.ts';
import { scheduleMainTurn } from './candidates.ts';

/**
 * Start-up sweep (nothing lost): a process that died between storing a card's placement and
 * queueing the turn it needs leaves work waiting with no job to do it. Queue a main turn when
 * candidates wait, and a turn for every unpaused ticket with cards in its inbox. Scheduling is
 * idempotent, so many workers starting at once is harmless.
 */
export async function recoverWaitingWork(ctx: Ctx): Promise<{ main: boolean; tickets: string[] }> {
  const main = (await ctx.redis.zcard(ctx.keys.candidates())) > 0;
  if (main) await scheduleMainTurn(ctx, 0);
  const woken: string[] = [];
  const ids = await ctx.redis.zrange(ctx.keys.tickets(), 0, -1);
  for (const id of ids) {
    if ((await ctx.redis.llen(ctx.keys.ticketInbox(id))) === 0 || (await isPaused(ctx, id))) continue;
    if (await scheduleTurn(ctx, id)) woken.push(id);
  }
  if (main || woken.length) ctx.log.info({ main, tickets: woken }, 'recovered waiting work');
  return { main, tickets: woken };
}
