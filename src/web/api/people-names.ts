import { feishuPersonName } from '../../channels/feishu/person-name.ts';
import type { Ctx } from '../../context.ts';
import type { TicketDetail } from './ticket-detail.ts';

/** How long a ticket page waits for Feishu's contact API; a slower look-up lands in the cache for the next poll. */
const NAME_WAIT_MS = 1500;

interface Person {
  id: string;
  name?: string | undefined;
}

/** Whether a person of this channel has no name of their own yet (the card keeps only the open_id). */
const unnamed = (source: string, p: Person | undefined | null): p is Person =>
  source === 'feishu' && Boolean(p) && (!p?.name || p.name === p.id);

/**
 * Issue 33 item 3: the Feishu people on a ticket's page — its requester and the authors of its
 * cards — by name from the contact API (cached), waiting at most `NAME_WAIT_MS`. GitHub logins
 * and local names are names already. Without one the panel shows the open_id shortened.
 */
export async function withPeopleNames(ctx: Ctx, detail: TicketDetail): Promise<TicketDetail> {
  const ids = new Set<string>();
  const source = detail.ticket.origin.source;
  if (unnamed(source, detail.owners.requester)) ids.add(detail.owners.requester.id);
  for (const c of detail.cards)
    if (c.card && unnamed(c.card.source, c.card.author)) ids.add(c.card.author.id);
  if (!ids.size) return detail;
  const names = await feishuNames(ctx, [...ids]);
  const named = <P extends Person>(p: P): P => {
    const name = names.get(p.id);
    return name ? { ...p, name } : p;
  };
  return {
    ...detail,
    owners: { ...detail.owners, requester: named(detail.owners.requester) },
    cards: detail.cards.map((c) =>
      c.card ? { ...c, card: { ...c.card, author: named(c.card.author) } } : c,
    ),
  };
}

/** Feishu open_ids by name where the contact API (cached) answers within `NAME_WAIT_MS`. */
export async function feishuNames(ctx: Ctx, ids: string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  await Promise.all(
    ids.map(async (id) => {
      const name = await within(feishuPersonName(ctx, id), NAME_WAIT_MS);
      if (name) names.set(id, name);
    }),
  );
  return names;
}

/** Issue 49 item 1: card authors of the Feishu channel by name, where known. */
export async function namedAuthors<C extends { card: { source: string; author: Person } | null }>(
  ctx: Ctx,
  cards: C[],
): Promise<C[]> {
  const ids = cards.flatMap((c) =>
    c.card && unnamed(c.card.source, c.card.author) ? [c.card.author.id] : [],
  );
  if (!ids.length) return cards;
  const names = await feishuNames(ctx, [...new Set(ids)]);
  return cards.map((c) => {
    const name = c.card && names.get(c.card.author.id);
    return c.card && name ? { ...c, card: { ...c.card, author: { ...c.card.author, name } } } : c;
  });
}

/** The promise's value, or undefined once `ms` have passed (the work goes on and fills the cache). */
function within<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}
