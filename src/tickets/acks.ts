import type { Ctx } from '../context.ts';
import { ackCounts } from '../stats/daily-counts.ts';
import { recordDailyCounts } from '../stats/daily-stats.ts';

type AckCtx = Pick<Ctx, 'redis' | 'keys'>;

/**
 * The owner of acknowledgements (issue 20, R-C2): `ticketAcked(ticket)` maps each card the
 * ticket acknowledged to the call that did it. A card is acknowledged once per ticket.
 */

/**
 * Claims the one acknowledgement of a card for this call. The same call claiming again (a turn
 * resumed after a crash) still holds it, so its reply is re-queued under the same key, not lost.
 * The first claim counts on the day's charts with how long after `receivedAt` (the card's
 * arrival) it came (issue 17, time to acknowledgement).
 */
export async function claimAck(
  ctx: AckCtx & Pick<Ctx, 'now'>,
  ticketId: string,
  cardId: string,
  callKey: string,
  receivedAt: number,
): Promise<boolean> {
  const key = ctx.keys.ticketAcked(ticketId);
  if ((await ctx.redis.hsetnx(key, cardId, callKey)) === 1) {
    const at = ctx.now();
    await recordDailyCounts(ctx, ackCounts(at, at - receivedAt));
    return true;
  }
  return (await ctx.redis.hget(key, cardId)) === callKey;
}

/** The call key (`<session>:<assistant index>:<call id>`) that acknowledged the card, if any. */
export async function ackCallOf(ctx: AckCtx, ticketId: string, cardId: string): Promise<string | undefined> {
  return (await ctx.redis.hget(ctx.keys.ticketAcked(ticketId), cardId)) ?? undefined;
}

/** Hands a card's acknowledgement from the call that held it to another, only if it still held it. */
const REPLACE = `
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
  return 1
end
return 0
`;

/**
 * Claims the card's acknowledgement like `claimAck`; when another call holds it, the claim passes
 * to this call only if `lost` says that call's message was lost for good (R-C2: acknowledged once
 * means a person saw it once, so a lost acknowledgement never blocks its replacement).
 */
export async function claimAckOrReplaceLost(
  ctx: AckCtx & Pick<Ctx, 'now'>,
  ticket: { ticketId: string; cardId: string; receivedAt: number },
  callKey: string,
  lost: (holderCallKey: string) => Promise<boolean>,
): Promise<boolean> {
  const { ticketId, cardId } = ticket;
  if (await claimAck(ctx, ticketId, cardId, callKey, ticket.receivedAt)) return true;
  const holder = await ackCallOf(ctx, ticketId, cardId);
  if (!holder || !(await lost(holder))) return false;
  return (await ctx.redis.eval(REPLACE, 1, ctx.keys.ticketAcked(ticketId), cardId, holder, callKey)) === 1;
}

export async function isAcked(ctx: AckCtx, ticketId: string, cardId: string): Promise<boolean> {
  return (await ctx.redis.hexists(ctx.keys.ticketAcked(ticketId), cardId)) === 1;
}

/** Whether the ticket acknowledged anything yet (its executor's first turn got that far). */
export async function hasAcked(ctx: AckCtx, ticketId: string): Promise<boolean> {
  return (await ctx.redis.hlen(ctx.keys.ticketAcked(ticketId))) > 0;
}
