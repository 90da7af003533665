import { loadCard } from '../../cards/ingest.ts';
import type { Ctx } from '../../context.ts';
import { type TicketPlan, ticketPlan } from '../../executor/plan/plan-record.ts';
import {
  screenshots,
  type TicketPr,
  ticketPr,
  verifications,
} from '../../executor/workspace/delivery-records.ts';
import { deliveryTrouble } from '../../outbox/delivery-trouble.ts';
import { deliveriesOf } from '../../outbox/sent-records.ts';
import { sessionRevisions } from '../../prompts/index.ts';
import type { ContextState } from '../../session/context/context-state.ts';
import { noUsage, type SessionUsage } from '../../session/session-usage.ts';
import { sessionUsage, transcriptOverview } from '../../session/transcript-store.ts';
import { usdOf } from '../../stats/cost.ts';
import { ticketCostNanos } from '../../stats/daily-stats.ts';
import { isConversationRefKey } from '../../tickets/ref-key.ts';
import { refsOf } from '../../tickets/refs.ts';
import { reportsOf, type TicketReport } from '../../tickets/reports.ts';
import type { Ticket } from '../../tickets/ticket.ts';
import { getTicket, ticketAttachments, ticketSessionIds } from '../../tickets/ticket-store.ts';
import { summaries } from './ticket-list.ts';
import { executorSessionId, type TicketSummary } from './ticket-summary.ts';

type ReadCtx = Pick<Ctx, 'redis' | 'keys' | 'log' | 'queues'>;

const EXCERPT = 280;

/** What `GET /api/tickets/:id` answers (issue 6 "Tickets": list and detail). */
export interface TicketDetail extends Omit<TicketSummary, 'pr'> {
  ticket: Ticket;
  /** Reference keys the ticket is subscribed to (`msg:…`, `thread:…`, `gh:owner/name#N`, …). */
  threads: string[];
  /** The ticket's own PR `{ repo, number, nodeId, url }` once it opened one (R-C6). */
  pr: TicketPr | null;
  /** GitHub issues and PRs the ticket follows (`gh:owner/name#N`). */
  prs: string[];
  cards: Awaited<ReturnType<typeof cardsOf>>;
  sessions: Awaited<ReturnType<typeof sessionOf>>[];
  /**
   * Model usage of the ticket's own work — its executor's session — with cache hits (issue 12).
   * The main sessions that routed to it serve their whole chat or repository: their lifetime
   * usage is listed per session (`shared`), never added to one ticket's.
   */
  usage: SessionUsage;
  /** Issue 33 item 5: what its executor's model requests cost so far, USD (`src/stats/prices.ts`). */
  costUsd: number;
  outbox: Awaited<ReturnType<typeof deliveriesOf>>;
  /** Deliveries that failed for good or wait to be tried again, each with its error. */
  troubled: Awaited<ReturnType<typeof deliveryTrouble>>;
  reports: TicketReport[];
  /** Commands run to verify the work, each with its exit code and the commit it ran at (R-C6). */
  verifications: Awaited<ReturnType<typeof verifications>>;
  /** Screenshots with the commit each shows; `href` serves the PNG (issue 15). */
  screenshots: (Awaited<ReturnType<typeof screenshots>>[number] & { href: string | null })[];
  /** Issue 48: the executor's plan as it last set it (update_plan), or null. */
  plan: TicketPlan | null;
}

/** Everything the panel shows about one ticket, or undefined when it does not exist. */
export async function ticketDetail(ctx: ReadCtx, id: string): Promise<TicketDetail | undefined> {
  const ticket = await getTicket(ctx, id);
  if (!ticket) return undefined;
  const [[summary], refs, pr, reports, cards, outbox, listed, runs, shots, troubled, plan] =
    await Promise.all([
      summaries(ctx, [ticket]),
      refsOf(ctx, id),
      ticketPr(ctx, id),
      reportsOf(ctx, id),
      cardsOf(ctx, id),
      deliveriesOf(ctx, id),
      ticketSessionIds(ctx, id),
      verifications(ctx, id),
      screenshots(ctx, id),
      deliveryTrouble(ctx, id),
      ticketPlan(ctx, id),
    ]);
  const own = executorSessionId(id);
  const sessionIds = [...new Set([own, ...listed])];
  const sessions = await Promise.all(sessionIds.map((s) => sessionOf(ctx, s, s !== own)));
  return {
    ...(summary as TicketSummary),
    ticket,
    // Issue 18: the conversation key only says where the ticket lives; it is no thread it follows.
    threads: refs.filter((r) => !isConversationRefKey(r)).sort(),
    pr: pr ?? null,
    prs: refs.filter((r) => r.startsWith('gh:')).sort(),
    cards,
    sessions,
    usage: sessions.find((s) => !s.shared)?.usage ?? noUsage(),
    costUsd: usdOf(await ticketCostNanos(ctx, id)),
    outbox,
    troubled,
    reports,
    verifications: runs,
    screenshots: shots.map((s) => ({ ...s, href: s.id ? `/api/tickets/${id}/screenshots/${s.id}` : null })),
    plan: plan ?? null,
  };
}

/** The cards in the order they attached, each with why and a short look at it (R-B2). */
export async function cardsOf(ctx: ReadCtx, id: string) {
  const attachments = await ticketAttachments(ctx, id);
  return Promise.all(
    attachments.map(async (a) => {
      const card = await loadCard(ctx, a.cardId);
      return {
        ...a,
        card: card
          ? {
              source: card.source,
              kind: card.kind,
              author: card.author,
              request: card.request,
              receivedAt: card.receivedAt,
              excerpt: card.text.slice(0, EXCERPT),
              truncated: card.truncated ?? null,
            }
          : null,
      };
    }),
  );
}

/**
 * A session with the prompt revisions it ran under (R-F3), its latest turn's usage (budgets), its
 * lifetime model usage with cache hits (issue 12), and how its transcript is compacted (R-H2).
 * `shared`: a main session, which works for other tickets too.
 */
async function sessionOf(ctx: ReadCtx, sessionId: string, shared: boolean) {
  const [revisions, overview, usage] = await Promise.all([
    sessionRevisions(ctx, sessionId),
    transcriptOverview(ctx, sessionId),
    sessionUsage(ctx, sessionId),
  ]);
  return {
    id: sessionId,
    shared,
    revisions,
    lastTurn: overview.lastTurn,
    transcriptLength: overview.length,
    usage,
    context: overview.context ? compactionOf(overview.context) : null,
  };
}

/** What an operator sees of a compaction: how many, where the model's view starts, the summary. */
function compactionOf(c: ContextState) {
  return {
    compactions: c.compactions,
    summarisedBefore: c.summarisedBefore,
    elidedBefore: c.elidedBefore,
    summary: c.summary ?? null,
  };
}
