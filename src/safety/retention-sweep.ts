import type { Ctx } from '../context.ts';
import { expiredTickets, purgeTicket, retentionMs } from '../tickets/retention.ts';

export interface SweepResult {
  purged: string[];
}

/**
 * The retention sweep (issue 14 "lifecycle"), a safety-queue job: tickets closed longer than
 * `RETENTION_DAYS` ago (or whose record already expired) leave every index and take their data
 * with them. Checkouts are each worker's own workspace sweep's (issue 19, `sweep-checkouts.ts`):
 * a queue job runs on one worker, and every worker has its own disk.
 */
export async function sweepRetention(ctx: Ctx): Promise<SweepResult> {
  const purged = await expiredTickets(ctx, ctx.now() - retentionMs(ctx));
  for (const id of purged) await purgeTicket(ctx, id);
  if (purged.length) ctx.log.info({ purged }, 'retention sweep');
  return { purged };
}
