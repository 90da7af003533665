import type { Ctx } from '../../context.ts';
import { isClosedState } from '../../tickets/retention.ts';
import { getTicket } from '../../tickets/ticket-store.ts';
import { readStepMarker } from './step-marker.ts';
import { workspacePaths } from './workspace.ts';
import { loadWorkspace } from './workspace-record.ts';
import { workspaceStepId } from './workspace-step-record.ts';

/**
 * Whether a ticket's checkout on this machine is still needed (issue 19): `needed` while the
 * ticket is open and this copy is its current one; otherwise why not — the ticket is gone
 * (purged), closed (done or cancelled; a reopened ticket clones again), or the copy is stale:
 * another worker made the ticket's checkout since (the record names another path) or recorded
 * steps this copy lacks, so the next turn here would make it again anyway.
 */
export type CheckoutVerdict = 'needed' | 'gone' | 'closed' | 'stale';

export async function checkoutVerdict(ctx: Ctx, ticketId: string): Promise<CheckoutVerdict> {
  const ticket = await getTicket(ctx, ticketId);
  if (!ticket) return 'gone';
  if (isClosedState(ticket.state)) return 'closed';
  const ws = await loadWorkspace(ctx, ticketId);
  if (!ws || ws.dir !== workspacePaths(ctx, ticketId).dir) return 'stale';
  const [marker, stored] = await Promise.all([readStepMarker(ctx, ticketId), workspaceStepId(ctx, ticketId)]);
  return marker === stored ? 'needed' : 'stale';
}
