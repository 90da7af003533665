import { z } from 'zod';
import type { Ctx } from '../context.ts';
import { readRecord } from '../store/parse-record.ts';
import { indexRefs } from '../tickets/refs.ts';

type SentCtx = Pick<Ctx, 'redis' | 'keys'>;

/**
 * The owner of sent records (issue 20): `outboxSent(key)`, written once a delivery went out, and
 * `outboxByTicket`, the ticket's deliveries in order. A sent record is what makes a delivery
 * idempotent: a job that finds one sends nothing.
 */
export const SentRecordSchema = z.object({
  at: z.number(),
  /** The message (or comment) id the delivery produced, when the channel gives one. */
  id: z.string().nullable(),
  op: z.string().optional(),
});
export type SentRecord = z.infer<typeof SentRecordSchema>;

/** How long a sent record is kept: longer than any job waits to be retried. */
const SENT_TTL_S = 7 * 24 * 3600;

export async function isSent(ctx: SentCtx, key: string): Promise<boolean> {
  return (await ctx.redis.exists(ctx.keys.outboxSent(key))) === 1;
}

/** A delivery's sent record, or undefined (also when it fails its schema: logged). */
export async function sentRecord(
  ctx: SentCtx & Pick<Ctx, 'log'>,
  key: string,
): Promise<SentRecord | undefined> {
  const k = ctx.keys.outboxSent(key);
  const raw = await ctx.redis.get(k);
  if (!raw) return undefined;
  const r = readRecord(ctx, SentRecordSchema, raw, k);
  return r.ok ? r.value : undefined;
}

/**
 * Records a delivery as sent, with the ticket's delivery log and the references it created (R-B2:
 * a message the ticket sent is one of its references) — one MULTI, so a sent record never exists
 * without its index entries.
 */
export async function recordSent(
  ctx: SentCtx,
  key: string,
  record: SentRecord,
  ticket?: { id: string; refs: string[] },
): Promise<void> {
  const tx = ctx.redis.multi().set(ctx.keys.outboxSent(key), JSON.stringify(record), 'EX', SENT_TTL_S);
  if (ticket) {
    tx.rpush(ctx.keys.outboxByTicket(ticket.id), key);
    if (ticket.refs.length) indexRefs(ctx.keys, tx, ticket.id, ticket.refs);
  }
  await tx.exec();
}

/** The ticket's delivered effects, oldest first, each with its sent record (null once expired). */
export async function deliveriesOf(
  ctx: SentCtx & Pick<Ctx, 'log'>,
  ticketId: string,
): Promise<{ key: string; sent: SentRecord | null }[]> {
  const keys = await ctx.redis.lrange(ctx.keys.outboxByTicket(ticketId), 0, -1);
  const sent = keys.length ? await ctx.redis.mget(keys.map((k) => ctx.keys.outboxSent(k))) : [];
  return keys.map((key, i) => {
    const raw = sent[i];
    const r = raw ? readRecord(ctx, SentRecordSchema, raw, ctx.keys.outboxSent(key)) : undefined;
    return { key, sent: r?.ok ? r.value : null };
  });
}
