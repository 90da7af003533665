import type { Ctx } from '../context.ts';

type C = Pick<Ctx, 'redis' | 'keys'>;

/**
 * Moves a ticket's inbox into this turn's batch, or returns the batch already taken by this turn
 * (a resumed turn sees the same cards). One script: a card is in exactly one of the two.
 */
export async function takeBatch(ctx: C, ticketId: string, turnId: string): Promise<string[]> {
  return (await ctx.redis.eval(
    `local b = redis.call('LRANGE', KEYS[2], 0, -1)
     if #b > 0 then return b end
     local ids = redis.call('LRANGE', KEYS[1], 0, -1)
     if #ids == 0 then return ids end
     redis.call('RPUSH', KEYS[2], unpack(ids))
     redis.call('EXPIRE', KEYS[2], 7 * 86400)
     redis.call('DEL', KEYS[1])
     return ids`,
    2,
    ctx.keys.ticketInbox(ticketId),
    ctx.keys.turnBatch(turnId),
  )) as string[];
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

/** Notes for the executor (R-B5), taken once per turn the same way. */
export async function takeNotes(ctx: C, ticketId: string, turnId: string): Promise<string[]> {
  const raws = (await ctx.redis.eval(
    `local b = redis.call('LRANGE', KEYS[2], 0, -1)
     if #b > 0 then return b end
     local n = redis.call('LRANGE', KEYS[1], 0, -1)
     if #n == 0 then return n end
     redis.call('RPUSH', KEYS[2], unpack(n))
     redis.call('EXPIRE', KEYS[2], 7 * 86400)
     redis.call('DEL', KEYS[1])
     return n`,
    2,
    ctx.keys.ticketNotes(ticketId),
    `${ctx.keys.turnBatch(turnId)}:notes`,
  )) as string[];
  return raws.map((r) => (JSON.parse(r) as { text: string }).text);
}
