import type { Ctx } from '../../context.ts';
import type { Pause, Ticket } from '../../tickets/ticket.ts';

type ReadCtx = Pick<Ctx, 'redis' | 'keys'>;

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

/** The pauses of many tickets in one round trip (null where not paused). */
export async function pausesOf(ctx: ReadCtx, ids: string[]): Promise<(Pause | null)[]> {
  if (!ids.length) return [];
  const raw = await ctx.redis.mget(ids.map((id) => ctx.keys.pause(id)));
  return raw.map((r) => (r ? (JSON.parse(r) as Pause) : null));
}
