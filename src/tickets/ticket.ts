import { z } from 'zod';
import type { Profile } from '../artifacts/artifact.ts';
import type { Origin } from '../cards/card.ts';

export type TicketState = 'open' | 'working' | 'waiting' | 'done' | 'cancelled';

/** A policy rule an inferred ticket matched (R-B8): its executor is restricted to these. */
export interface MatchedRule {
  id: string;
  name: string;
  instruction: string;
  /** The crew the rule runs its tickets with (issue 7). */
  crew?: string;
  /** The most the ticket's executor may do (F-12): a permission profile; absent, its crew's. */
  profile?: Profile;
  /** The rule lets the ticket open a pull request (F-12); absent, it may not. */
  openPr?: boolean;
  /** Model requests per turn the rule allows (F-12); absent, `INFERRED_MAX_REQUESTS`. */
  maxRequests?: number;
}

/**
 * The crew a ticket runs (issue 7): chosen by the routing decision or a matched policy rule, else
 * the default; role, profile, topology and registry revision are those of its latest turn (R-G5).
 */
export interface TicketCrew {
  name: string;
  from: 'routing' | 'policy' | 'default';
  role?: string;
  profile?: string;
  topology?: string;
  revision?: number;
}

/** One unit of work: a request, its executor, and everything attached to it. */
export interface Ticket {
  id: string;
  title: string;
  state: TicketState;
  /** The card that opened the ticket, and where it came from (replies and questions go there). */
  openedBy: string;
  origin: Origin;
  conversation: string;
  requester: { id: string; name?: string };
  /** `owner/name` the work happens in, once known. */
  repo?: string;
  /** Present for tickets opened under a policy rule rather than an explicit request. */
  inferred?: { rules: MatchedRule[] };
  crew?: TicketCrew;
  createdAt: number;
  updatedAt: number;
}

/** Why a card is on a ticket: an explicit reference code found, or a routing decision. */
export const AttachmentSchema = z.object({ cardId: z.string(), why: z.string(), at: z.number() });
export type Attachment = z.infer<typeof AttachmentSchema>;

export interface Pause {
  by: string;
  at: number;
  cardId?: string;
  /**
   * `breaker`: the circuit breaker stopped a runaway ticket; a person lifts it (issue 8). `budget`:
   * a budget was spent (issue 33 item 5); lifted by itself when raised or the day turns.
   */
  via: 'message' | 'button' | 'api' | 'breaker' | 'main' | 'budget';
  /** Why the main session stopped the work (`orchestrator_stop`), in its words. */
  reason?: string;
}
