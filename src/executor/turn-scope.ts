import type { TurnArtifacts } from '../artifacts/turn-snapshot.ts';
import type { TriggerCard } from '../cards/card.ts';
import type { Runtime } from '../runtime.ts';
import { wasHandedBack } from '../tickets/handback.ts';
import type { Ticket } from '../tickets/ticket.ts';
import { ackStands } from './ack-lost.ts';

/** What an executor turn's tools share: the ticket, the cards of this turn, and the runtime. */
export interface TurnScope {
  rt: Runtime;
  ticket: Ticket;
  turnId: string;
  /** The cards this turn works on (its inbox batch), by id. */
  batch: Map<string, TriggerCard>;
  /** The role, profile and topology this turn resolved at its start (issue 7, R-G5); default: worker, hub. */
  artifacts?: TurnArtifacts;
  /** Cards of the batch that are data here (from elsewhere, or a non-steerer's): card id → data label (R-H5). */
  dataCards?: Map<string, string>;
  /**
   * The ticket involves a PR whose head is in a fork (issue 13 "Untrusted checkout content"):
   * every command of this turn runs with network `none`, whatever `SANDBOX_NETWORK` says.
   */
  forkCode?: boolean;
  /**
   * Aborted when the ticket is paused while the turn runs (issue 28 "pause means now"), or when
   * the turn is lost to a newer runner (issue 46): a command under way is killed then, not run to
   * its end.
   */
  paused?: AbortSignal;
}

/** Requests that must be acknowledged or handed back before work tools run (R-C2). */
export function isRequest(scope: TurnScope, card: TriggerCard): boolean {
  if (scope.dataCards?.has(card.id)) return false; // R-H5: data (from elsewhere or a non-steerer) asks nothing
  return card.author.type === 'person' && (card.request || card.id === scope.ticket.openedBy);
}

/** The batch's requests not yet acknowledged nor handed back by this ticket. */
export async function pendingRequests(scope: TurnScope): Promise<string[]> {
  const { ctx } = scope.rt;
  const out: string[] = [];
  for (const card of scope.batch.values()) {
    if (!isRequest(scope, card)) continue;
    // An acknowledgement lost for good (its delivery failed) does not count: it is owed again.
    const acked = await ackStands(ctx, scope.ticket.id, card.id);
    const handed = await wasHandedBack(ctx, card.id, scope.ticket.id);
    if (!acked && !handed) out.push(card.id);
  }
  return out;
}
