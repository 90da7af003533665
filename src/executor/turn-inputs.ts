import type { Ctx } from '../context.ts';
import { moveIntoBatch } from '../store/take-batch.ts';

type C = Pick<Ctx, 'redis' | 'keys'>;

/**
 * Moves a ticket's inbox into this turn's batch, or returns the batch already taken by this turn
 * (a resumed turn sees the same cards). One script: a card is in exactly one of the two.
 */
export function takeBatch(ctx: C, ticketId: string, turnId: string): Promise<string[]> {
  return moveIntoBatch(
    ctx.redis,
    { key: ctx.keys.ticketInbox(ticketId), type: 'list' },
    ctx.keys.turnBatch(turnId),
  );
}

/** Puts a batch back at the head of the inbox (the turn was paused before it could work on it). */
export async function returnBatch(ctx: C, ticketId: string, turnId: string): Promise<void> {
  await ctx.redis.eval(
    `local b = redis.call('LRANGE', KEYS[2], 0, -1)
     for i = #b, 1, -1 do redis.call('LPUSH', KEYS[1], b[i]) end
     redis.call('DEL', KEYS[2])`,
    2,
    ctx.keys.ticketInbox(ticketId),
    ctx.keys.turnBatch(turnId),
  );
}

/** Forgets a settled turn's batch (its cards were handled, taken or handed back). */
export async function dropBatch(ctx: C, turnId: string): Promise<void> {
  await ctx.redis.del(ctx.keys.turnBatch(turnId));
}

/** Whether the turn holds a batch it took and has not settled yet. */
export async function holdsBatch(ctx: C, turnId: string): Promise<boolean> {
  return (await ctx.redis.exists(ctx.keys.turnBatch(turnId))) > 0;
}

/** Whether cards wait in the ticket's inbox for another turn. */
export async function hasWaitingCards(ctx: C, ticketId: string): Promise<boolean> {
  return (await ctx.redis.llen(ctx.keys.ticketInbox(ticketId))) > 0;
}

/** Of these tickets, the ones with cards waiting in their inbox (one pipelined round trip). */
export async function withWaitingCards(ctx: C, ticketIds: string[]): Promise<string[]> {
  if (!ticketIds.length) return [];
  const tx = ctx.redis.pipeline();
  for (const id of ticketIds) tx.llen(ctx.keys.ticketInbox(id));
  const rows = (await tx.exec()) ?? [];
  return ticketIds.filter((_, i) => Number(rows[i]?.[1] ?? 0) > 0);
}
