import type { TriggerCard } from '../cards/card.ts';
import { threadKeys } from '../tickets/ref-key.ts';
import { anyUnrelated } from '../tickets/unrelated.ts';
import type { TurnScope } from './turn-scope.ts';

/**
 * R-C4 (P-69): an executor that declared a card's thread unrelated does not speak there — neither
 * with `reply` nor with a question in `report`'s `human_action`. The one check both tools ask:
 * the refusal, or undefined when the card's thread is the ticket's business.
 */
export async function unrelatedThreadRefusal(
  scope: TurnScope,
  card: TriggerCard,
): Promise<string | undefined> {
  const declared = await anyUnrelated(scope.rt.ctx, scope.ticket.id, threadKeys(card));
  return declared ? `refused: you declared ${card.id}'s thread unrelated (R-C4)` : undefined;
}
