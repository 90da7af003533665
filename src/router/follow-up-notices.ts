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
  /** `opened` (issue 18): a ticket code opened for an explicit request no ticket could be meant for (R-B8). Absent: a follow-up. */
  kind: z.literal('opened').optional(),
});
export type FollowUpNotice = z.infer<typeof FollowUpNoticeSchema>;

/** One notice as a main turn sees it, for one ticket. */
export interface NoticeRef {
  cardId: string;
  /** Whether its author may steer this ticket: only then may it justify `orchestrator_stop`. */
  steers: boolean;
  /** The card opened this ticket by code (issue 18): news for the main session, never a reason to stop it. */
  opened?: true;
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

/**
 * Issue 18: routing opened a ticket by code for an explicit request that no ticket could be meant
 * for. The main session learns of it with its next turn, like a follow-up, and it starts none.
 */
export async function noteOpened(
  ctx: Pick<Ctx, 'redis' | 'keys' | 'now'>,
  cardId: string,
  ticketId: string,
): Promise<void> {
  const notice: FollowUpNotice = {
    cardId,
    tickets: [ticketId],
    steers: [ticketId],
    at: ctx.now(),
    kind: 'opened',
  };
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
      const ref: NoticeRef = {
        cardId: n.cardId,
        steers: n.steers?.includes(t) ?? false,
        ...(n.kind === 'opened' ? { opened: true as const } : {}),
      };
      const refs = byTicket.get(t) ?? [];
      // A routing job retried after a crash may have noted the same opening twice.
      if (!refs.some((r) => r.cardId === ref.cardId && r.opened === ref.opened)) refs.push(ref);
      byTicket.set(t, refs);
    }
  }
  return byTicket;
}
