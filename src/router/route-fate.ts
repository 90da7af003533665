import type { TriggerCard } from '../cards/card.ts';
import type { FateNote } from '../cards/event-fate.ts';
import { recordCardFate } from '../cards/event-log.ts';
import type { Ctx } from '../context.ts';
import { WRITE_PERMISSIONS } from './may-steer.ts';
import { REFUSALS, type RouteOutcome } from './route-outcome.ts';

type FateCtx = Pick<Ctx, 'redis' | 'keys' | 'log' | 'now'>;

/**
 * Issue 33 item 2: how routing placed a card, in the events inbox. `why` holds, for an attached
 * card, the explicit reference per ticket (`route-card.ts`).
 */
export function noteRouteFate(
  ctx: FateCtx,
  card: TriggerCard,
  outcome: RouteOutcome,
  why: string[],
): Promise<void> {
  return recordCardFate(ctx, card, fateOfRoute(card, outcome, why));
}

/** The inbox's fate for a routing outcome; refusals say which rule and, for GitHub, which permission. */
export function fateOfRoute(card: TriggerCard, outcome: RouteOutcome, why: string[]): FateNote {
  switch (outcome.kind) {
    case 'attached':
      return { fate: 'attached', tickets: outcome.tickets, reason: why.join('; ') || undefined };
    case 'opened':
      return { fate: 'opened', tickets: [outcome.ticket], reason: outcome.reason };
    case 'candidate':
      return { fate: 'waiting', reason: 'waiting for the main session to open, attach or ignore it' };
    case 'command':
      return { fate: 'command', tickets: outcome.tickets, reason: `/${outcome.command}` };
    case 'chat_repo':
      return outcome.result === 'refused'
        ? { fate: 'refused', reason: '/repo: only a settings admin may bind a repository to this chat' }
        : { fate: 'command', reason: `/repo: ${outcome.result}` };
    case 'ignored':
      if (outcome.reason === REFUSALS.mayNotStart) return { fate: 'refused', reason: mayNotStart(card) };
      if (outcome.reason === REFUSALS.pressNotAllowed) return { fate: 'refused', reason: outcome.reason };
      return { fate: 'ignored', reason: outcome.reason };
  }
}

/** Why the author may not start work: a failed permission check says so (it used to leave no trace). */
function mayNotStart(card: TriggerCard): string {
  const a = card.author;
  if (a.role === 'not_allowed') return `${REFUSALS.mayNotStart}: not on the allow-lists`;
  if (card.origin.source !== 'github') return REFUSALS.mayNotStart;
  if (a.permission === 'unknown')
    return `${REFUSALS.mayNotStart}: the GitHub permission check for ${a.id} on ${card.origin.repo} failed (permission unknown, fail closed)`;
  if (a.permission && WRITE_PERMISSIONS.has(a.permission))
    return `${REFUSALS.mayNotStart}: ${a.id} is not on the GitHub allow-list (ALLOWED_USERS)`;
  if (a.permission)
    return `${REFUSALS.mayNotStart}: ${a.id} has permission "${a.permission}" on ${card.origin.repo}, not write`;
  return `${REFUSALS.mayNotStart}: ${a.id} (${a.role ?? 'no association'}) has no write access to ${card.origin.repo}, or is not on the GitHub allow-list`;
}

/**
 * Issue 33 item 2: the main session's decision on a waiting card, in the inbox, written right after
 * it took effect (a crash in between leaves the entry `waiting` while the ticket holds the card).
 */
export function noteDecisionFate(
  ctx: FateCtx,
  card: TriggerCard,
  d: { action: 'open' | 'attach' | 'ignore'; ticket: string; why: string; note?: string | undefined },
): Promise<void> {
  const reason = d.note ? `${d.why}; note: ${d.note}` : d.why;
  if (d.action === 'ignore') return recordCardFate(ctx, card, { fate: 'ignored', reason });
  const fate = d.action === 'open' ? 'opened' : 'attached';
  return recordCardFate(ctx, card, { fate, tickets: [d.ticket], reason });
}
