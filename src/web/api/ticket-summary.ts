import type { StatusState } from '../../status/status-model.ts';
import type { Pause, Ticket } from '../../tickets/ticket.ts';

/** What a ticket waits on (issue 49 item 4): an answer, a person to unblock it, a pause, its budget. */
export const WAITING_ON = ['answer', 'blocked', 'paused', 'budget'] as const;
export type WaitingOn = (typeof WAITING_ON)[number];

/** A ticket's executor session id (`src/executor/executor-turn.ts`). */
export const executorSessionId = (ticketId: string): string => `exec-${ticketId}`;

/** One row of `GET /api/tickets`. */
export interface TicketSummary {
  id: string;
  title: string;
  state: Ticket['state'];
  /** The person who asked, and the executor session working on it. */
  owners: { requester: Ticket['requester']; session: string };
  pause: Pause | null;
  repo: string | null;
  conversation: string;
  source: Ticket['origin']['source'];
  openedBy: string;
  inferred: boolean;
  createdAt: number;
  updatedAt: number;
  /** Issue 49: the state its status message shows, what it waits on, its open question, its PR. */
  status: StatusState;
  waitingOn: WaitingOn | null;
  question: string | null;
  pr: { label: string; url: string } | null;
}

/** What `summarize` reads beside the ticket (`ticket-list.ts`). */
export interface SummaryFacts {
  pause: Pause | null;
  status: StatusState;
  waitingOn: WaitingOn | null;
  question: string | null;
  pr: TicketSummary['pr'];
}

export function summarize(t: Ticket, f: SummaryFacts): TicketSummary {
  const { pause, ...rest } = f;
  return {
    id: t.id,
    title: t.title,
    state: t.state,
    owners: { requester: t.requester, session: executorSessionId(t.id) },
    pause,
    repo: t.repo ?? null,
    conversation: t.conversation,
    source: t.origin.source,
    openedBy: t.openedBy,
    inferred: Boolean(t.inferred),
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    ...rest,
  };
}

/** Callers import it from here too; the pause's owner is `tickets/pause.ts`. */
export { pausesOf } from '../../tickets/pause.ts';
