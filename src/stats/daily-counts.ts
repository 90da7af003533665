import type { ModelUsage } from '../session/model-reply.ts';

/**
 * What one event adds to its day's counters (issue 17, the panel's charts): `add` fields are
 * summed, `max` fields keep the largest value seen. `at` picks the UTC day.
 */
export interface DailyCounts {
  at: number;
  add: Record<string, number>;
  max?: Record<string, number>;
  /** Issue 33 item 5: a ticket's own running cost (nano-dollars), added in the same write. */
  ticketCost?: { ticketId: string; nanos: number };
}

/**
 * Issue 33 item 5: what one model request cost (nano-dollars, `src/stats/cost.ts`) and whom it is
 * charged to: the ticket whose executor asked, the repository and the chat it works for.
 */
export interface Spend {
  nanos: number;
  ticketId?: string | undefined;
  repo?: string | undefined;
  chat?: string | undefined;
}

/** A session kind as a field name part: the product's own labels (`main`, `executor`), never outside text. */
const KIND = /^[a-z][a-z0-9_-]{0,30}$/;
const kindOf = (kind: string): string => (KIND.test(kind) ? kind : 'other');

/** The UTC day of a time, `YYYY-MM-DD`. */
export const dayOf = (at: number): string => new Date(at).toISOString().slice(0, 10);

/** One model request's tokens, by the session kind that made it, and its cost when known (issue 33). */
export function usageCounts(kind: string, at: number, usage: ModelUsage, spend?: Spend): DailyCounts {
  const k = kindOf(kind);
  const counts: DailyCounts = {
    at,
    add: {
      [`tokens:prompt:${k}`]: usage.promptTokens,
      [`tokens:completion:${k}`]: usage.completionTokens,
      [`tokens:cache:${k}`]: usage.cacheHitTokens,
    },
  };
  if (spend?.nanos) addSpend(counts, k, spend);
  return counts;
}

/** Cost fields of a day: in all, by session kind, and by ticket, repository and chat. */
function addSpend(counts: DailyCounts, kind: string, spend: Spend): void {
  const { nanos } = spend;
  counts.add['cost:all'] = nanos;
  counts.add[`cost:kind:${kind}`] = nanos;
  if (spend.ticketId) {
    counts.add[`cost:ticket:${spend.ticketId}`] = nanos;
    counts.ticketCost = { ticketId: spend.ticketId, nanos };
  }
  if (spend.repo) counts.add[`cost:repo:${spend.repo}`] = nanos;
  if (spend.chat) counts.add[`cost:chat:${spend.chat}`] = nanos;
}

/** One finished turn's duration, by session kind. */
export function turnCounts(kind: string, at: number, ms: number): DailyCounts {
  const k = kindOf(kind);
  const d = Math.max(0, Math.round(ms));
  return { at, add: { [`turn:n:${k}`]: 1, [`turn:ms:${k}`]: d }, max: { [`turn:max:${k}`]: d } };
}

/** One acknowledgement: how long after its card arrived. */
export function ackCounts(at: number, ms: number): DailyCounts {
  const d = Math.max(0, Math.round(ms));
  return { at, add: { 'ack:n': 1, 'ack:ms': d }, max: { 'ack:max': d } };
}

export type TicketEvent = 'opened' | 'done' | 'blocked';

/** A ticket opened, done, or blocked (it went to `waiting` for people). */
export function ticketCounts(event: TicketEvent, at: number): DailyCounts {
  return { at, add: { [`tickets:${event}`]: 1 } };
}
