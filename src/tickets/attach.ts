import type { TriggerCard } from '../cards/card.ts';
import { retentionSeconds } from '../cards/growth-bounds.ts';
import type { Ctx } from '../context.ts';
import { threadKeys } from './ref-key.ts';
import type { Attachment } from './ticket.ts';

export interface AttachOptions {
  /**
   * R-H5: a card from outside the ticket's repository or chat is data only: the ticket does not
   * follow its thread, and the label (its source and its author's standing there) goes with it to
   * the executor. Absent: a card of the ticket's own place, whose thread the ticket follows (R-B2).
   */
  dataLabel?: string | undefined;
}

/**
 * Attaches a card to a ticket (R-B2): records why, makes the ticket an owner of the card (R-C3),
 * subscribes the ticket to the card's thread (cards of its own place only, R-H5), and puts the
 * card in the ticket's inbox for its next executor turn, and gives the card and its full text
 * `RETENTION_DAYS` to live (issue 31: a card that requested nothing was stored short-lived). One
 * script: a crash leaves either all of it or none — never an attached card about to expire.
 * Attaching the same card twice is a no-op (the owner set says so first).
 */
export async function attachCard(
  ctx: Pick<Ctx, 'redis' | 'keys' | 'now' | 'config'>,
  ticketId: string,
  card: TriggerCard,
  why: string,
  opts: AttachOptions = {},
): Promise<boolean> {
  const attachment: Attachment = {
    cardId: card.id,
    why: opts.dataLabel ? `${why}; data only` : why,
    at: ctx.now(),
  };
  const thread = opts.dataLabel ? [] : threadKeys(card);
  const args = [
    ticketId,
    card.id,
    JSON.stringify(attachment),
    opts.dataLabel ?? '',
    retentionSeconds(ctx.config),
    ...thread,
  ];
  const added = await ctx.redis.eval(
    ATTACH,
    8,
    ctx.keys.cardOwners(card.id),
    ctx.keys.ticketCards(ticketId),
    ctx.keys.ticketInbox(ticketId),
    ctx.keys.ticketRefs(ticketId),
    ctx.keys.refIndex(''),
    ctx.keys.ticketDataCards(ticketId),
    ctx.keys.card(card.id),
    ctx.keys.cardFull(card.id),
    ...args,
  );
  return added === 1;
}

// KEYS: owners, ticket cards, inbox, ticket refs, ref-index prefix, data cards, card, full text.
// ARGV: ticket, card, attachment, data label ('' for none), retention (s), thread keys…
// The card's TTL only grows: it was at most RETENTION_DAYS from its arrival or its ticket's close.
const ATTACH = `
if redis.call('SADD', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('RPUSH', KEYS[2], ARGV[3])
redis.call('RPUSH', KEYS[3], ARGV[2])
if ARGV[4] ~= '' then redis.call('HSET', KEYS[6], ARGV[2], ARGV[4]) end
redis.call('EXPIRE', KEYS[7], ARGV[5])
redis.call('EXPIRE', KEYS[8], ARGV[5])
for i = 6, #ARGV do
  redis.call('SADD', KEYS[5] .. ARGV[i], ARGV[1])
  redis.call('SADD', KEYS[4], ARGV[i])
end
return 1
`;

/** The data labels of those of `cardIds` that are on the ticket as data only (R-H5). */
export async function dataLabels(
  ctx: Pick<Ctx, 'redis' | 'keys'>,
  ticketId: string,
  cardIds: string[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (!cardIds.length) return out;
  const labels = await ctx.redis.hmget(ctx.keys.ticketDataCards(ticketId), ...cardIds);
  cardIds.forEach((id, i) => {
    const label = labels[i];
    if (label) out.set(id, label);
  });
  return out;
}

/**
 * R-C5, R-H5: is this card one of the ticket's own — attached to it (the ticket is among its
 * owners) and not as data from another repository or chat? Only such a card may carry the
 * ticket's questions; one round trip.
 */
export async function isOwnCard(
  ctx: Pick<Ctx, 'redis' | 'keys'>,
  ticketId: string,
  cardId: string,
): Promise<boolean> {
  const [[, owner], [, data]] = ((await ctx.redis
    .multi()
    .sismember(ctx.keys.cardOwners(cardId), ticketId)
    .hexists(ctx.keys.ticketDataCards(ticketId), cardId)
    .exec()) ?? []) as [[unknown, number], [unknown, number]];
  return owner === 1 && data === 0;
}

/**
 * Records a card on the ticket's card list without attaching it (a pause or resume command: the
 * ticket shows it, but it is no work for the executor and makes no owner).
 */
export async function recordOnTicket(
  ctx: Pick<Ctx, 'redis' | 'keys'>,
  ticketId: string,
  note: Attachment,
): Promise<void> {
  await ctx.redis.rpush(ctx.keys.ticketCards(ticketId), JSON.stringify(note));
}
