import { loadCard } from '../cards/ingest.ts';
import { replyEffectFor } from '../cards/reply-effect.ts';
import type { Ctx } from '../context.ts';
import { enqueueEffect } from '../outbox/enqueue.ts';
import { noteReportForMain } from '../router/follow-up-notices.ts';
import { addReport } from '../tickets/reports.ts';
import type { Ticket } from '../tickets/ticket.ts';

/**
 * Records a host report on the ticket (as a `blocked` report with a `human_action` question, the
 * way an executor asks, R-C5) and asks the requester in reply to the message that opened the
 * ticket. `kind` says which host check asked; `key` makes the message idempotent: telling twice under one key sends once.
 * The main session gets the report as a notice that starts its turn (issue 30), like an executor's.
 */
export async function tellRequester(
  ctx: Ctx,
  ticket: Ticket,
  { key, kind }: { key: string; kind: 'stalled' | 'circuit_breaker' | 'budget' },
  question: string,
): Promise<void> {
  await addReport(ctx, ticket.id, {
    status: 'blocked',
    kind,
    summary: question,
    human_action: { question },
    by: 'host',
    at: ctx.now(),
  });
  const origin = await loadCard(ctx, ticket.openedBy);
  const effect = origin && replyEffectFor(origin, question);
  // Issue 30 ("不等待"): the main session learns of it by itself, batched like any report
  // (before the message, so whoever reads it finds the host's work done).
  await noteReportForMain(ctx, ticket.id, {
    status: 'blocked',
    summary: question,
    asked: Boolean(effect),
    host: kind,
  });
  // Exempt from the pause: the breaker pauses the ticket and must still ask a person.
  if (effect) await enqueueEffect(ctx, { key, effect, ticketId: ticket.id, exemptFromPause: true });
}
