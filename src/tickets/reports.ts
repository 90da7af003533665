import { z } from 'zod';
import type { Ctx } from '../context.ts';
import { readRecord } from '../store/parse-record.ts';

type ReportsCtx = Pick<Ctx, 'redis' | 'keys'>;

/**
 * One entry of a ticket's report history (R-C5): the executor's `report`, a turn the host stopped
 * (`blocked`), a host check asking the requester (`by: 'host'`, with `kind`), or the main
 * session's stop (`stopped`). The panel shows them all; the status message shows the newest
 * summary.
 */
export const TicketReportSchema = z.object({
  status: z.enum(['working', 'done', 'blocked', 'stopped']),
  summary: z.string(),
  human_action: z
    .object({ question: z.string(), card: z.string().optional(), choices: z.array(z.string()).optional() })
    .nullable()
    .optional(),
  kind: z.enum(['stalled', 'circuit_breaker', 'budget']).optional(),
  by: z.string().optional(),
  at: z.number(),
});
export type TicketReport = z.infer<typeof TicketReportSchema>;

/** The owner of a ticket's reports (issue 20): appends one. */
export async function addReport(ctx: ReportsCtx, ticketId: string, report: TicketReport): Promise<void> {
  await ctx.redis.rpush(ctx.keys.ticketReports(ticketId), JSON.stringify(report));
}

/** Every report, oldest first; a stored report that fails its schema is logged and left out. */
export async function reportsOf(
  ctx: ReportsCtx & Pick<Ctx, 'log'>,
  ticketId: string,
): Promise<TicketReport[]> {
  const key = ctx.keys.ticketReports(ticketId);
  return (await ctx.redis.lrange(key, 0, -1)).flatMap((raw) => {
    const r = readRecord(ctx, TicketReportSchema, raw, key);
    return r.ok ? [r.value] : [];
  });
}

/** The newest report, or undefined (also when it fails its schema: logged, the status goes on). */
export async function lastReport(
  ctx: ReportsCtx & Pick<Ctx, 'log'>,
  ticketId: string,
): Promise<TicketReport | undefined> {
  const key = ctx.keys.ticketReports(ticketId);
  const raw = await ctx.redis.lindex(key, -1);
  if (!raw) return undefined;
  const r = readRecord(ctx, TicketReportSchema, raw, key);
  return r.ok ? r.value : undefined;
}
