import type { Ctx } from '../context.ts';
import { scheduleTurn } from '../executor/schedule-turn.ts';
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
  // One pipelined round trip for every ticket's inbox and pause, not two per ticket.
  const tx = ctx.redis.pipeline();
  for (const id of ids) tx.llen(ctx.keys.ticketInbox(id)).exists(ctx.keys.pause(id));
  const rows = (await tx.exec()) ?? [];
  for (const [i, id] of ids.entries()) {
    const waiting = Number(rows[2 * i]?.[1] ?? 0) > 0;
    const paused = Number(rows[2 * i + 1]?.[1] ?? 0) === 1;
    if (waiting && !paused && (await scheduleTurn(ctx, id))) woken.push(id);
  }
  if (main || woken.length) ctx.log.info({ main, tickets: woken }, 'recovered waiting work');
  return { main, tickets: woken };
}
