import { z } from 'zod';
import type { Ctx } from '../context.ts';
import { readRecord } from '../store/parse-record.ts';
import { moveIntoBatch } from '../store/take-batch.ts';

/** The newest notices kept; older ones are of no use to a router that may only stop work. */
const KEEP = 100;

export const FollowUpNoticeSchema = z.object({
  cardId: z.string(),
  tickets: z.array(z.string()),
  /** The tickets whose work its author may steer (R-H5); on the others it is data only. */
  steers: z.array(z.string()).optional(),
  at: z.number(),
});
export type FollowUpNotice = z.infer<typeof FollowUpNoticeSchema>;

/** One notice as a main turn sees it, for one ticket. */
export interface NoticeRef {
  cardId: string;
  /** Whether its author may steer this ticket: only then may it justify `orchestrator_stop`. */
  steers: boolean;
}

/**
 * R-B6: a person's follow-up that code attached to tickets becomes a notice for the main session,
 * with the tickets its author may steer (R-H5): on the others it is shown as data only.
 * Notices ride along with the next main turn and never start one: a follow-up costs no main
 * session model request (R-B2).
 */
export async function noteFollowUp(
  ctx: Pick<Ctx, 'redis' | 'keys' | 'now'>,
  cardId: string,
  tickets: string[],
  steers: string[],
): Promise<void> {
  const notice: FollowUpNotice = { cardId, tickets, steers, at: ctx.now() };
  await ctx.redis
    .multi()
    .rpush(ctx.keys.mainNotices(), JSON.stringify(notice))
    .ltrim(ctx.keys.mainNotices(), -KEEP, -1)
    .exec();
}

/** Takes the waiting notices into a main turn (the same ones again if the turn resumes), by ticket. */
export async function takeNotices(
  ctx: Pick<Ctx, 'redis' | 'keys'> & Partial<Pick<Ctx, 'log'>>,
  turnId: string,
): Promise<Map<string, NoticeRef[]>> {
  const raws = await moveIntoBatch(
    ctx.redis,
    { key: ctx.keys.mainNotices(), type: 'list' },
    ctx.keys.mainNoticesBatch(turnId),
    86400,
  );
  const byTicket = new Map<string, NoticeRef[]>();
  for (const raw of raws) {
    // A notice that fails its schema is logged and left out; the card itself is not lost.
    const read = readRecord(ctx, FollowUpNoticeSchema, raw, ctx.keys.mainNoticesBatch(turnId));
    if (!read.ok) continue;
    const n = read.value;
    // A notice written before R-H5 says nothing of standing: it counts as data (fail closed).
    for (const t of n.tickets) {
      const ref: NoticeRef = { cardId: n.cardId, steers: n.steers?.includes(t) ?? false };
      byTicket.set(t, [...(byTicket.get(t) ?? []), ref]);
    }
  }
  return byTicket;
}
