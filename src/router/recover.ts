import type { Ctx } from '../context.ts';
import { scheduleTurn } from '../executor/schedule-turn.ts';
import { withWaitingCards } from '../executor/turn-inputs.ts';
import { pausedAmong } from '../tickets/pause.ts';
import { allTicketIds } from '../tickets/ticket-store.ts';
import { hasCandidates, scheduleMainTurn } from './candidates.ts';

/**
 * Start-up sweep (nothing lost): a process that died between storing a card's placement and
 * queueing the turn it needs leaves work waiting with no job to do it. Queue a main turn when
 * candidates wait, and a turn for every unpaused ticket with cards in its inbox. Scheduling is
 * BullMQ's deduplication (`addQueuedJob`): a turn already queued or running absorbs the wake-up,
 * so many workers starting at once is harmless.
 */
export async function recoverWaitingWork(ctx: Ctx): Promise<{ main: boolean; tickets: string[] }> {
  const main = await hasCandidates(ctx);
  if (main) await scheduleMainTurn(ctx, 0);
  const woken: string[] = [];
  // Pipelined round trips for every ticket's inbox and pause, not two per ticket.
  const waiting = await withWaitingCards(ctx, await allTicketIds(ctx));
  const paused = await pausedAmong(ctx, waiting);
  for (const id of waiting) {
    if (paused.has(id)) continue;
    if (await scheduleTurn(ctx, id)) woken.push(id);
  }
  if (main || woken.length) ctx.log.info({ main, tickets: woken }, 'recovered waiting work');
  return { main, tickets: woken };
}
