import { z } from 'zod';
import type { Ctx } from '../context.ts';
import { readRecord } from '../store/parse-record.ts';
import { moveIntoBatch } from '../store/take-batch.ts';
import { scheduleMainTurn } from './candidates.ts';

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

/** An executor's report for the main session (R-B6 "不等待": reports arrive by themselves). */
export const ReportNoticeSchema = z.object({
  kind: z.literal('report'),
  ticket: z.string(),
  status: z.enum(['working', 'done', 'blocked']),
  summary: z.string(),
  /** The report asked people a question (already asked by the host: nothing to forward). */
  asked: z.boolean().optional(),
  /**
   * Written by the host, not the executor: the executor's turn stopped for a budget or a model
   * failure, or a host check (the stall watchdog, the circuit breaker) asked the requester.
   */
  host: z.enum(['budget', 'model', 'stalled', 'circuit_breaker']).optional(),
  at: z.number(),
});
export type ReportNotice = z.infer<typeof ReportNoticeSchema>;

const StoredNoticeSchema = z.union([ReportNoticeSchema, FollowUpNoticeSchema]);
type StoredNotice = z.infer<typeof StoredNoticeSchema>;

/** What a main turn learns besides its candidates: notices by ticket, and reports in order. */
export interface TakenNotices {
  byTicket: Map<string, NoticeRef[]>;
  reports: ReportNotice[];
}

/** How much of a report's summary the main session is shown. */
const SUMMARY_CHARS = 300;

/**
 * Whether a notice starts a main turn of its own (issue 30): a report, or a follow-up from someone
 * who may steer one of its tickets — the one the main session may act on (`orchestrator_stop`).
 * The news that code opened a ticket, and a follow-up that is data everywhere, ride with the next.
 */
const wakes = (n: StoredNotice): boolean =>
  n.kind === 'report' || (n.kind === undefined && (n.steers?.length ?? 0) > 0);

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
 * with the tickets its author may steer (R-H5): on the others it is shown as data only. One its
 * author may steer somewhere starts a main turn (debounced and batched with candidates, like
 * them), so a "never mind, cancel" in a quiet chat is acted on without waiting for another
 * message; one that is data everywhere rides with the next turn.
 */
export async function noteFollowUp(
  ctx: Pick<Ctx, 'redis' | 'keys' | 'now' | 'queues'>,
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
  if (steers.length) await scheduleMainTurn(ctx);
}

/**
 * An executor reported, or the host reported for it (issue 30, "不等待": a turn stopped for a budget
 * or a model failure, a stall, the circuit breaker): the main session learns of it by itself, with
 * a main turn debounced and batched with candidates and other notices — never one request per report.
 */
export async function noteReportForMain(
  ctx: Pick<Ctx, 'redis' | 'keys' | 'now' | 'queues'>,
  ticket: string,
  report: { status: ReportNotice['status']; summary: string; asked: boolean; host?: ReportNotice['host'] },
): Promise<void> {
  const notice: ReportNotice = {
    kind: 'report',
    ticket,
    status: report.status,
    summary: report.summary.slice(0, SUMMARY_CHARS),
    ...(report.asked ? { asked: true } : {}),
    ...(report.host ? { host: report.host } : {}),
    at: ctx.now(),
  };
  await ctx.redis
    .multi()
    .rpush(ctx.keys.mainNotices(), JSON.stringify(notice))
    .ltrim(ctx.keys.mainNotices(), -KEEP, -1)
    .exec();
  await scheduleMainTurn(ctx);
}

/**
 * Whether notices call for a main turn: the turn already took some (it resumed), or one waiting
 * would start a turn of its own (`wakes`). Only then does a turn with no candidate take them.
 */
export async function noticesWake(
  ctx: Pick<Ctx, 'redis' | 'keys'> & Partial<Pick<Ctx, 'log'>>,
  turnId?: string,
): Promise<boolean> {
  if (turnId && (await ctx.redis.llen(ctx.keys.mainNoticesBatch(turnId))) > 0) return true;
  const key = ctx.keys.mainNotices();
  for (const raw of await ctx.redis.lrange(key, 0, -1)) {
    const read = readRecord(ctx, StoredNoticeSchema, raw, key);
    if (read.ok && wakes(read.value)) return true;
  }
  return false;
}

/**
 * Issue 18: routing opened a ticket by code for an explicit request that no ticket could be meant
 * for. The main session learns of it with its next turn, and it starts none (nothing to act on).
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
): Promise<TakenNotices> {
  const raws = await moveIntoBatch(
    ctx.redis,
    { key: ctx.keys.mainNotices(), type: 'list' },
    ctx.keys.mainNoticesBatch(turnId),
    86400,
  );
  const byTicket = new Map<string, NoticeRef[]>();
  const reports: ReportNotice[] = [];
  for (const raw of raws) {
    // A notice that fails its schema is logged and left out; the card itself is not lost.
    const read = readRecord(ctx, StoredNoticeSchema, raw, ctx.keys.mainNoticesBatch(turnId));
    if (!read.ok) continue;
    const n = read.value;
    if (n.kind === 'report') {
      reports.push(n);
      continue;
    }
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
  return { byTicket, reports };
}
