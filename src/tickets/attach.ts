import type { TriggerCard } from '../cards/card.ts';
import type { Ctx } from '../context.ts';
import { threadKeys } from './ref-key.ts';
import type { Attachment } from './ticket.ts';

/**
 * Attaches a card to a ticket (R-B2): records why, makes the ticket an owner of the card (R-C3),
 * subscribes the ticket to the card's thread, and puts the card in the ticket's inbox for its
 * next executor turn. One MULTI: a crash leaves either all of it or none. Attaching the same card
 * twice is a no-op (the owner set says so first).
 */
export async function attachCard(
  ctx: Pick<Ctx, 'redis' | 'keys' | 'now'>,
  ticketId: string,
  card: TriggerCard,
  why: string,
): Promise<boolean> {
  const attachment: Attachment = { cardId: card.id, why, at: ctx.now() };
  const thread = threadKeys(card);
  const args = [ticketId, card.id, JSON.stringify(attachment), ...thread];
  const added = await ctx.redis.eval(
    ATTACH,
    5,
    ctx.keys.cardOwners(card.id),
    ctx.keys.ticketCards(ticketId),
    ctx.keys.ticketInbox(ticketId),
    ctx.keys.ticketRefs(ticketId),
    ctx.keys.refIndex(''),
    ...args,
  );
  return added === 1;
}

// KEYS: owners, ticket cards, inbox, ticket refs, ref-index prefix. ARGV: ticket, card, attachment, thread keys…
const ATTACH = `
if redis.call('SADD', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('RPUSH', KEYS[2], ARGV[3])
redis.call('RPUSH', KEYS[3], ARGV[2])
for i = 4, #ARGV do
  redis.call('SADD', KEYS[5] .. ARGV[i], ARGV[1])
  redis.call('SADD', KEYS[4], ARGV[i])
end
return 1
`;
