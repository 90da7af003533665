import type { Ctx } from '../../context.ts';
import { ticketPr } from '../../executor/workspace/delivery-records.ts';
import { readQuestionFacts } from '../../status/status-facts.ts';
import { deriveState, openQuestion } from '../../status/status-model.ts';
import type { Ticket } from '../../tickets/ticket.ts';
import { listTickets } from '../../tickets/ticket-store.ts';
import { passes, type TicketFilter, waitingOn } from './ticket-filter.ts';
import { pausesOf, type SummaryFacts, summarize, type TicketSummary } from './ticket-summary.ts';

type ListCtx = Pick<Ctx, 'redis' | 'keys' | 'log'>;

/** How many of the newest tickets a filtered list looks through (the most `?limit=` allows). */
export const SCANNED = 500;

const ended = (t: Ticket) => t.state === 'done' || t.state === 'cancelled';

/**
 * Each ticket's row with what it waits on (issue 49): its pause, open question and PR, read
 * together; an ended ticket's question is not read (it waits on nothing).
 */
export async function summaries(ctx: ListCtx, tickets: Ticket[]): Promise<TicketSummary[]> {
  const pauses = await pausesOf(
    ctx,
    tickets.map((t) => t.id),
  );
  return Promise.all(
    tickets.map(async (t, i) => {
      const pause = pauses[i] ?? null;
      const [facts, pr] = await Promise.all([
        ended(t) ? ({} as Awaited<ReturnType<typeof readQuestionFacts>>) : readQuestionFacts(ctx, t.id),
        ticketPr(ctx, t.id),
      ]);
      const q = facts.question;
      const open = q && facts.answer?.askedAt === q.at ? undefined : openQuestion(q);
      const status = deriveState({ ticketState: t.state, paused: Boolean(pause), question: open });
      const f: SummaryFacts = {
        pause,
        status,
        waitingOn: waitingOn(status, { pause }),
        question: status === 'waiting' ? (open?.question ?? null) : null,
        pr: pr ? { label: `${pr.repo}#${pr.number}`, url: pr.url } : null,
      };
      return summarize(t, f);
    }),
  );
}

/** The newest tickets that pass the filter, at most `filter.limit` (issue 49 item 4). */
export async function filteredTickets(ctx: ListCtx, filter: TicketFilter): Promise<TicketSummary[]> {
  const rows = await summaries(ctx, await listTickets(ctx, SCANNED));
  return rows.filter((t) => passes(t, filter)).slice(0, filter.limit);
}
