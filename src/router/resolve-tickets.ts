import type { TriggerCard } from '../cards/card.ts';
import type { Ctx } from '../context.ts';
import { cardRefKeys, needsUniqueOwner } from '../tickets/ref-key.ts';
import { holdersOf } from '../tickets/refs.ts';
import { takenRecently } from './recent-change.ts';

/**
 * R-B2, by code: the tickets a card explicitly points at, each with the reference that matched.
 * A commit or branch counts only when exactly one ticket holds it and took it recently (within
 * `ATTACH_RECENT_DAYS`, issue 30: "a recent change"); an older one leaves the card to the main
 * session. Any other reference attaches to every ticket that holds it. Topic words never match
 * anything here.
 */
export async function resolveTickets(
  ctx: Pick<Ctx, 'redis' | 'keys' | 'config' | 'now'>,
  card: TriggerCard,
): Promise<Map<string, string>> {
  const keys = cardRefKeys(card);
  const found = new Map<string, string>();
  if (!keys.length) return found;
  const holders = await holdersOf(ctx, keys);
  const changes = keys.flatMap((key, i): [string, string][] => {
    const owners = holders[i] ?? [];
    return needsUniqueOwner(key) && owners.length === 1 ? [[owners[0] as string, key]] : [];
  });
  const recent = new Set((await takenRecently(ctx, changes)).flatMap((yes, i) => (yes ? [i] : [])));
  holders.forEach((owners, i) => {
    const key = keys[i] as string;
    if (needsUniqueOwner(key)) {
      const j = changes.findIndex(([, k]) => k === key);
      if (j < 0 || !recent.has(j)) return;
    }
    for (const id of owners) if (!found.has(id)) found.set(id, key);
  });
  return found;
}
