import type { Lang } from '../i18n/lang.ts';
import type { TicketState } from '../tickets/ticket.ts';

/** What a ticket is doing, as its status message shows it (issue 9). */
export type StatusState = 'working' | 'waiting' | 'paused' | 'blocked' | 'done';

/** An executor's open `human_action` question (R-C5), and the answer a button gave it. */
export interface StatusQuestion {
  question: string;
  choices: string[];
  /** The turn that asked: a report of a later turn without a question closes it. */
  turnId: string;
  /**
   * Where it was asked, once (issue 15): on this status card (choices as buttons), or as a reply
   * in the conversation — then the card only says a question waits, without repeating it.
   */
  askedIn?: 'status' | 'reply';
  at: number;
  answer?: StatusAnswer;
}

/** A choice pressed on the status card; `askedAt` ties it to the question it answers. */
export interface StatusAnswer {
  choice: number;
  text: string;
  by: string;
  at: number;
  askedAt: number;
}

/**
 * Issue 33: the tool call behind the current step — a few words of its arguments (the command,
 * the path), when it started, and when it returned; when read, `ms` is how long it has run (or
 * ran), and `idleMs` how long ago it returned (the model has had its result that long).
 */
export interface StatusCall {
  tool: string;
  detail?: string;
  startedAt: number;
  endedAt?: number;
  ms: number;
  idleMs?: number;
}

/** Model requests and tokens the ticket's executor turns used, added after every request (issue 33). */
export interface StatusUsage {
  modelRequests: number;
  tokens: number;
}

/** Everything the status message shows; one pure value, rendered per platform. */
export interface TicketStatus {
  ticketId: string;
  title: string;
  state: StatusState;
  /** Who paused, when paused (R-D2). */
  pausedBy?: string;
  /** The current step in a few words (`editing files`, `opening a PR`). */
  step?: string;
  /** Issue 33: the call under way (or just returned) while the executor works, for the panel. */
  call?: StatusCall;
  /** The latest report's summary. */
  summary?: string;
  question?: StatusQuestion;
  branch?: { name: string; url?: string };
  pr?: { label: string; url: string };
  /** Issue 48: the executor's plan as it last set it (update_plan). */
  plan?: { step: string; status: 'pending' | 'in_progress' | 'completed' }[];
  elapsedMs: number;
  usage: StatusUsage;
  /** The ticket's language (issue 16): the GitHub comment's, and the card's for clients in neither. */
  lang?: Lang;
}

/** What `deriveState` reads: the ticket's own state and the status facts beside it. */
export interface StateFacts {
  ticketState: TicketState;
  paused: boolean;
  question: StatusQuestion | undefined;
}

/**
 * One state for the header. A pause outranks everything (it is what a person must lift); an open
 * question outranks "blocked", since an answer is the action needed; a ticket in `waiting` without
 * a question, or in any other state a later issue adds (`stalled`), is blocked.
 */
export function deriveState(f: StateFacts): StatusState {
  if (f.paused) return 'paused';
  if (f.ticketState === 'done' || f.ticketState === 'cancelled') return 'done';
  if (f.question && !f.question.answer) return 'waiting';
  if (f.ticketState === 'open' || f.ticketState === 'working') return 'working';
  return 'blocked';
}

/** An open question whose answer buttons still apply. */
export const openQuestion = (q: StatusQuestion | undefined): StatusQuestion | undefined =>
  q && !q.answer ? q : undefined;
