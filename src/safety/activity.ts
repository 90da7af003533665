import type { Ctx } from '../context.ts';

type ActivityCtx = Pick<Ctx, 'redis' | 'keys'>;

/**
 * The owner of the watchdog's record (issue 20, issue 8): `ticketActivity`, a sorted set of
 * tickets scored by the time of their executor's last step.
 */

/** The watchdog's record that a ticket's executor took a step at `at`. */
export async function noteActivity(ctx: ActivityCtx, ticketId: string, at: number): Promise<void> {
  await ctx.redis.zadd(ctx.keys.ticketActivity(), at, ticketId);
}

/** Tickets whose last step is at or before `before`, oldest first (at most `limit`), with its time. */
export async function quietTickets(
  ctx: ActivityCtx,
  before: number,
  limit: number,
): Promise<{ id: string; at: string }[]> {
  const flat = await ctx.redis.zrangebyscore(
    ctx.keys.ticketActivity(),
    '-inf',
    before,
    'WITHSCORES',
    'LIMIT',
    0,
    limit,
  );
  const out: { id: string; at: string }[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push({ id: flat[i] as string, at: flat[i + 1] as string });
  return out;
}

/** Forgets a ticket's last step only if no newer step came meanwhile (one script: scores are step times). */
export async function forgetActivity(ctx: ActivityCtx, ticketId: string, at: string): Promise<void> {
  await ctx.redis.eval(FORGET_IF_UNCHANGED, 1, ctx.keys.ticketActivity(), ticketId, at);
}

const FORGET_IF_UNCHANGED = `
if redis.call('ZSCORE', KEYS[1], ARGV[1]) == ARGV[2] then return redis.call('ZREM', KEYS[1], ARGV[1]) end
return 0
`;
