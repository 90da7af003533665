import type { Ctx } from '../context.ts';
import { moveIntoBatch } from '../store/take-batch.ts';

/** The newest notices kept; older ones are of no use to a router that may only stop work. */
const KEEP = 100;

export interface FollowUpNotice {
  cardId: string;
  tickets: string[];
  at: number;
}

/**
 * R-B6: a person's follow-up that code attached to tickets becomes a notice for the main session.
 * Notices ride along with the next main turn and never start one: a follow-up costs no main
 * session model request (R-B2).
 */
export async function noteFollowUp(
  ctx: Pick<Ctx, 'redis' | 'keys' | 'now'>,
  cardId: string,
  tickets: string[],
): Promise<void> {
  const notice: FollowUpNotice = { cardId, tickets, at: ctx.now() };
  await ctx.redis
    .multi()
    .rpush(ctx.keys.mainNotices(), JSON.stringify(notice))
    .ltrim(ctx.keys.mainNotices(), -KEEP, -1)
    .exec();
}

/** Takes the waiting notices into a main turn (the same ones again if the turn resumes), by ticket. */
export async function takeNotices(
  ctx: Pick<Ctx, 'redis' | 'keys'>,
  turnId: string,
): Promise<Map<string, string[]>> {
  const raws = await moveIntoBatch(
    ctx.redis,
    { key: ctx.keys.mainNotices(), type: 'list' },
    `${ctx.keys.mainBatch(turnId)}:notices`,
    86400,
  );
  const byTicket = new Map<string, string[]>();
  for (const raw of raws) {
    const n = JSON.parse(raw) as FollowUpNotice;
    for (const t of n.tickets) byTicket.set(t, [...(byTicket.get(t) ?? []), n.cardId]);
  }
  return byTicket;
}
