import type { TriggerCard } from '../cards/card.ts';
import type { Config } from '../config.ts';
import { maySteer } from '../router/may-steer.ts';

/**
 * Whether a card attached by reference starts an executor turn. Automatic feedback (bots, checks)
 * does, as the executor must answer it (R-C7) — the circuit breaker bounds a loop of it. A person
 * who may not steer (R-A5) does not: their message is kept on the ticket as data, and the
 * executor reads it at its next turn, with their role and permission on the card.
 */
export function wakesExecutor(
  card: TriggerCard,
  config: Pick<Config, 'ALLOWED_USERS' | 'ALLOWED_CHATS'>,
): boolean {
  if (card.author.type === 'bot' || card.kind === 'check') return true;
  return maySteer(card, config);
}
