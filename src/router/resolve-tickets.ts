import type { TriggerCard } from '../cards/card.ts';
import type { Ctx } from '../context.ts';
import { cardRefKeys, needsUniqueOwner } from '../tickets/ref-key.ts';
import { holdersOf } from '../tickets/refs.ts';

/**
 * R-B2, by code: the tickets a card explicitly points at, each with the reference that matched.
 * A commit or branch counts only when exactly one ticket holds it; any other reference attaches
 * to every ticket that holds it. Topic words never match anything here.
 */
export async function resolveTickets(
  ctx: Pick<Ctx, 'redis' | 'keys'>,
  card: TriggerCard,
): Promise<Map<string, string>> {
  const keys = cardRefKeys(card);
  const found = new Map<string, string>();
  if (!keys.length) return found;
  (await holdersOf(ctx, keys)).forEach((owners, i) => {
    const key = keys[i] as string;
    if (needsUniqueOwner(key) && owners.length !== 1) return;
    for (const id of owners) if (!found.has(id)) found.set(id, key);
  });
  return found;
}
