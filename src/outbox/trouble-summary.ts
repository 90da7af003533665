import type { Job } from 'bullmq';
import type { Ctx } from '../context.ts';
import { isSent } from './sent-records.ts';

/** How many failed and delayed outbox jobs Home looks through (newest first), as the ticket page does. */
const SCAN = 1000;

/** A ticket's deliveries that failed for good or wait to be tried again after an error. */
export interface TicketTrouble {
  ticketId: string;
  failed: number;
  retrying: number;
}

/** Every ticket's delivery trouble, for the panel's Home (issue 33 item 1); totals beside. */
export interface TroubleSummary {
  failed: number;
  retrying: number;
  /** Tickets with trouble, most failures first; deliveries of no ticket count in the totals only. */
  tickets: TicketTrouble[];
}

const dataOf = (job: Job) => (job.data ?? {}) as { ticketId?: unknown; key?: unknown };

/**
 * The same rule as a ticket page's `deliveryTrouble` (`delivery-trouble.ts`), over all tickets: a
 * failed job, or a delayed one with an error (a paused ticket's held delivery has none), that is
 * not recorded as sent since.
 */
export async function troubleSummary(ctx: Pick<Ctx, 'redis' | 'keys' | 'queues'>): Promise<TroubleSummary> {
  const [failed, delayed] = await Promise.all([
    ctx.queues.outbox.getFailed(0, SCAN - 1),
    ctx.queues.outbox.getDelayed(0, SCAN - 1),
  ]);
  const troubled = [
    ...failed.filter(Boolean).map((job) => ({ job, state: 'failed' as const })),
    ...delayed.filter((job) => job?.failedReason).map((job) => ({ job, state: 'retrying' as const })),
  ];
  const summary: TroubleSummary = { failed: 0, retrying: 0, tickets: [] };
  const byTicket = new Map<string, TicketTrouble>();
  for (const { job, state } of troubled) {
    const { ticketId, key } = dataOf(job);
    if (typeof key === 'string' && key && (await isSent(ctx, key))) continue;
    summary[state] += 1;
    if (typeof ticketId !== 'string' || !ticketId) continue;
    const entry = byTicket.get(ticketId) ?? { ticketId, failed: 0, retrying: 0 };
    entry[state] += 1;
    byTicket.set(ticketId, entry);
  }
  summary.tickets = [...byTicket.values()].sort((a, b) => b.failed - a.failed || b.retrying - a.retrying);
  return summary;
}
