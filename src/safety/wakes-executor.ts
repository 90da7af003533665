import type { TriggerCard } from '../cards/card.ts';
import type { Standing } from '../router/ticket-standing.ts';

/**
 * Whether a card attached by reference starts an executor turn. Automatic feedback (bots, checks)
 * from the ticket's own repository or chat does, as the executor must answer it (R-C7) — the
 * circuit breaker bounds a loop of it. A person wakes it only when they may steer this ticket
 * (R-A5, R-H5): anyone else's message, and every card from elsewhere, is kept on the ticket as
 * data, and the executor reads it at its next turn, with its author's standing.
 */
export function wakesExecutor(card: TriggerCard, standing: Standing): boolean {
  if (card.author.type === 'bot' || card.kind === 'check') return standing.home;
  return standing.steers;
}
