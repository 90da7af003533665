import type { TriggerCard } from '../cards/card.ts';
import type { Ctx } from '../context.ts';
import { holderCount, refsOf } from '../tickets/refs.ts';
import { takenRecently } from './recent-change.ts';
import { resolveTickets } from './resolve-tickets.ts';

/**
 * R-B2 for the main session's `attach`: does the card explicitly point at this ticket? Either
 * code resolves one of its references to the ticket, or its text names the ticket by id, or names
 * one of the ticket's own PRs, branches or commits — a change that belongs to no other ticket and
 * that it took recently (`takenRecently`, P-66: the same rule as code's attach). Topic similarity
 * never passes.
 */
export async function referenceHolds(
  ctx: Pick<Ctx, 'redis' | 'keys' | 'config' | 'now'>,
  card: TriggerCard,
  ticketId: string,
): Promise<string | undefined> {
  const byCode = await resolveTickets(ctx, card);
  const ref = byCode.get(ticketId);
  if (ref) return ref;
  const text = `${card.title ?? ''}\n${card.text}`;
  if (new RegExp(`(^|[^\\w])${ticketId}(?![\\w])`).test(text))
    return `ticket id ${ticketId} named in the text`;
  for (const key of await refsOf(ctx, ticketId)) {
    const named = namedIn(text, key);
    if (!named) continue;
    if ((await holderCount(ctx, key)) !== 1) continue;
    const [recent] = await takenRecently(ctx, [[ticketId, key]]);
    if (recent) return `${named} named in the text`;
  }
  return undefined;
}

/** Whether the text names a change a ref key stands for; the name found, if so. */
function namedIn(text: string, key: string): string | undefined {
  const [kind, ...rest] = key.split(':');
  const value = rest.join(':');
  if (kind === 'commit') {
    const m = text.match(/\b[0-9a-f]{7,40}\b/gi)?.find((s) => value.startsWith(s.toLowerCase()));
    return m ? `commit ${m}` : undefined;
  }
  if (kind === 'branch') {
    const name = value.slice(value.indexOf(':') + 1);
    return name.length >= 3 && text.includes(name) ? `branch ${name}` : undefined;
  }
  return undefined;
}
