import type { Pause, Ticket } from '../../tickets/ticket.ts';

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
}

export function summarize(t: Ticket, pause: Pause | null): TicketSummary {
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
  };
}

/** Callers import it from here too; the pause's owner is `tickets/pause.ts`. */
export { pausesOf } from '../../tickets/pause.ts';
