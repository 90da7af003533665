import type { TriggerCard } from '../cards/card.ts';
import type { Ctx } from '../context.ts';
import { scheduleTurn } from '../executor/schedule-turn.ts';
import { statusOpened } from '../status/status-hooks.ts';
import { ownersOf } from '../tickets/ownership.ts';
import { isPaused } from '../tickets/pause.ts';
import { createTicket, getTicket, openTicketsIn, ticketAttachments } from '../tickets/ticket-store.ts';
import { claimConversation, releaseConversation } from './conversation-claim.ts';
import { noteOpened } from './follow-up-notices.ts';
import type { RouteOutcome } from './route-outcome.ts';

/** The decision record of a ticket opened by code: on its first attachment and its route outcome. */
export const FORCED_REASON =
  'forced: no ticket could be meant (an explicit request, admitted by R-B8; no explicit reference, no open ticket in its conversation)';

type Opened = Extract<RouteOutcome, { kind: 'opened' }>;

/**
 * Issue 18: an explicit request (R-B8: always admitted) that points at no ticket (no explicit
 * reference resolved, R-B2; its text names no ticket id or commit, `mayNameTicket`, checked by the
 * caller) in a conversation where no ticket is open could only be opened by the
 * main session; code opens it instead, saving a model round trip before the acknowledgement, and
 * the main session is told with its next turn (it starts none). Undefined when a ticket is open in
 * the conversation, or another request is being opened there this moment: the card then goes to
 * the main session as before.
 *
 * A crash at any line is safe: before the ticket exists, the retried job claims again (same card)
 * and opens it; after, `openedEarlier` finds it and finishes the steps, each safe to repeat.
 */
export async function openForced(ctx: Ctx, card: TriggerCard): Promise<Opened | undefined> {
  if (!(await claimConversation(ctx, card.conversation, card.id))) return undefined;
  let ticketId: string;
  try {
    if ((await openTicketsIn(ctx, card.conversation)).length) return undefined;
    ticketId = (await createTicket(ctx, card, { why: FORCED_REASON })).id;
  } finally {
    await releaseConversation(ctx, card.conversation, card.id);
  }
  await afterOpen(ctx, card.id, ticketId);
  return { kind: 'opened', ticket: ticketId, reason: FORCED_REASON };
}

/**
 * A routing job retried after its card opened a ticket (the crash fell after `createTicket`): the
 * same outcome, the steps after the opening done again (each is safe to repeat). Undefined when the
 * card opened nothing.
 */
export async function openedEarlier(ctx: Ctx, card: TriggerCard): Promise<Opened | undefined> {
  for (const id of await ownersOf(ctx, card.id)) {
    if ((await getTicket(ctx, id))?.openedBy !== card.id) continue;
    const reason = (await ticketAttachments(ctx, id))[0]?.why ?? FORCED_REASON;
    // Opened by the main session (this job was retried after the card became a candidate): done.
    if (reason === FORCED_REASON) await afterOpen(ctx, card.id, id);
    return { kind: 'opened', ticket: id, reason };
  }
  return undefined;
}

/** The executor's turn first (the acknowledgement waits on it), then the status, then the notice. */
async function afterOpen(ctx: Ctx, cardId: string, ticketId: string): Promise<void> {
  if (!(await isPaused(ctx, ticketId))) await scheduleTurn(ctx, ticketId);
  await statusOpened(ctx, ticketId);
  await noteOpened(ctx, cardId, ticketId);
}
