import type { Ctx } from '../context.ts';
import { turnRunning } from '../executor/turn-lock.ts';
import { localCheckouts, releaseCheckout } from '../executor/workspace/release-checkout.ts';
import { expiredTickets, isClosedState, purgeTicket, retentionMs } from '../tickets/retention.ts';
import { getTicket } from '../tickets/ticket-store.ts';

export interface SweepResult {
  purged: string[];
  checkouts: string[];
}

/**
 * The retention sweep (issue 14 "lifecycle"), a safety-queue job: tickets closed longer than
 * `RETENTION_DAYS` ago (or whose record already expired) leave every index and take their data
 * with them; checkouts of closed or vanished tickets are deleted from this machine's disk, unless
 * a turn of the ticket is running.
 */
export async function sweepRetention(ctx: Ctx): Promise<SweepResult> {
  const purged = await expiredTickets(ctx, ctx.now() - retentionMs(ctx));
  for (const id of purged) await purgeTicket(ctx, id);
  const checkouts: string[] = [];
  for (const id of await localCheckouts(ctx)) {
    const [ticket, running] = await Promise.all([getTicket(ctx, id), turnRunning(ctx, id)]);
    if (running || (ticket && !isClosedState(ticket.state))) continue;
    await releaseCheckout(ctx, id);
    checkouts.push(id);
  }
  if (purged.length || checkouts.length) ctx.log.info({ purged, checkouts }, 'retention sweep');
  return { purged, checkouts };
}
