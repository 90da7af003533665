import type { Ctx } from '../../context.ts';
import { ticketPr } from '../../executor/workspace/delivery-records.ts';
import { reportsOf } from '../../tickets/reports.ts';
import { namedAuthors } from './people-names.ts';
import { cardsOf } from './ticket-detail.ts';
import { ticketTrajectory } from './ticket-trajectory.ts';
import { mergeTimeline, type TimelineItem } from './timeline-merge.ts';

/**
 * `GET /api/tickets/:id/timeline` (issue 49 item 1): the ticket's people's messages, the bot's
 * messages, its agent steps grouped per turn, commits, PR and reports, merged by time.
 */
export async function ticketTimeline(ctx: Ctx, ticketId: string): Promise<TimelineItem[]> {
  const [steps, cards, reports, pr] = await Promise.all([
    ticketTrajectory(ctx, ticketId),
    cardsOf(ctx, ticketId),
    reportsOf(ctx, ticketId),
    ticketPr(ctx, ticketId),
  ]);
  const named = await namedAuthors(ctx, cards);
  return mergeTimeline({
    steps,
    cards: named,
    reports,
    pr: pr ? { repo: pr.repo, number: pr.number, url: pr.url } : null,
  });
}
