import { z } from 'zod';
import type { TriggerCard } from '../cards/card.ts';
import { retentionSeconds } from '../cards/growth-bounds.ts';
import type { Ctx } from '../context.ts';
import { type TicketEvent, ticketCounts } from '../stats/daily-counts.ts';
import { addDailyCounts, recordDailyCounts } from '../stats/daily-stats.ts';
import { checkRecord, type RecordRead, readRecord } from '../store/parse-record.ts';
import { readAttachments } from './attachment-record.ts';
import { conversationRefKey, threadKeys } from './ref-key.ts';
import { holdersOf, indexRefs } from './refs.ts';
import { applyRetention, isClosedState } from './retention.ts';
import type { Attachment, MatchedRule, Ticket, TicketCrew, TicketState } from './ticket.ts';
import { isTicketId } from './ticket-id.ts';
import { TicketSchema, TicketStateSchema } from './ticket-schema.ts';

type StoreCtx = Pick<Ctx, 'redis' | 'keys' | 'now'>;

/** A ticket is a hash of JSON-encoded fields, so a change writes only its fields, atomically. */
const toHash = (t: Partial<Ticket>): Record<string, string> =>
  Object.fromEntries(Object.entries(t).map(([k, v]) => [k, JSON.stringify(v)]));

type ReadCtx = Pick<Ctx, 'redis' | 'keys'> & Partial<Pick<Ctx, 'log'>>;

/**
 * A ticket's hash, each field decoded and the whole checked by `TicketSchema` (issue 20): a field
 * that is not JSON or a record of the wrong shape is reported, never cast. Undefined for no hash.
 */
/** Any JSON value: each field is decoded alone, the record is checked whole (made once, not per read). */
const ANY_JSON = z.unknown();

function fromHash(ctx: ReadCtx, h: Record<string, string>, key: string): RecordRead<Ticket> | undefined {
  if (!Object.keys(h).length) return undefined;
  const fields: Record<string, unknown> = {};
  for (const [field, raw] of Object.entries(h)) {
    const r = readRecord(ctx, ANY_JSON, raw, `${key} ${field}`);
    if (!r.ok) return r;
    fields[field] = r.value;
  }
  return checkRecord(ctx, TicketSchema, fields, key);
}

/** A short title from the request's first line. */
export function titleFrom(card: TriggerCard): string {
  const line = (card.title ?? card.text).split('\n').find((l) => l.trim()) ?? card.kind;
  return line.trim().slice(0, 80);
}

/**
 * Opens a ticket from the card that asked for it. The record, the index entries for its thread
 * and the card's attachment are written in one MULTI, so no reader ever sees a ticket without its
 * references or a reference pointing at no ticket, nor an opening card about to expire.
 */
export async function createTicket(
  ctx: StoreCtx & Pick<Ctx, 'config'>,
  card: TriggerCard,
  opts: { title?: string; why: string; inferred?: { rules: MatchedRule[] }; crew?: TicketCrew },
): Promise<Ticket> {
  const n = await ctx.redis.incr(ctx.keys.ticketSeq());
  const now = ctx.now();
  const ticket: Ticket = {
    id: `T${n}`,
    title: opts.title?.trim() || titleFrom(card),
    state: 'open',
    openedBy: card.id,
    origin: card.origin,
    conversation: card.conversation,
    requester: card.author.name ? { id: card.author.id, name: card.author.name } : { id: card.author.id },
    ...(card.origin.source === 'github' ? { repo: card.origin.repo } : {}),
    ...(opts.inferred ? { inferred: opts.inferred } : {}),
    ...(opts.crew ? { crew: opts.crew } : {}),
    createdAt: now,
    updatedAt: now,
  };
  const tx = ctx.redis
    .multi()
    .hset(ctx.keys.ticket(ticket.id), toHash(ticket))
    .zadd(ctx.keys.tickets(), now, ticket.id);
  // Issue 18: the conversation key tells routing a ticket lives here; it never attaches anything.
  indexRefs(ctx.keys, tx, ticket.id, [...threadKeys(card), conversationRefKey(card.conversation)]);
  const attachment: Attachment = { cardId: card.id, why: opts.why, at: now };
  tx.rpush(ctx.keys.ticketCards(ticket.id), JSON.stringify(attachment)).sadd(
    ctx.keys.cardOwners(card.id),
    ticket.id,
  );
  tx.rpush(ctx.keys.ticketInbox(ticket.id), card.id);
  // Issue 31: the opening card lives as long as an attached one (it may have requested nothing).
  const ttl = retentionSeconds(ctx.config);
  tx.expire(ctx.keys.card(card.id), ttl).expire(ctx.keys.cardFull(card.id), ttl);
  addDailyCounts(tx, ctx.keys, ticketCounts('opened', now));
  await tx.exec();
  return ticket;
}

/** The ticket, or undefined; a stored ticket that fails its schema throws `StoredRecordError`. */
export async function getTicket(ctx: ReadCtx, id: string): Promise<Ticket | undefined> {
  // Issue 31: an id of another shape (`T1:cards`) would name another record's key.
  if (!isTicketId(id)) return undefined;
  const key = ctx.keys.ticket(id);
  const r = fromHash(ctx, await ctx.redis.hgetall(key), key);
  if (r && !r.ok) throw r.error;
  return r?.value;
}

/**
 * The open tickets of a conversation (issue 18): those created there, neither done nor cancelled
 * (one round trip for the index, one for their states). A ticket whose record is gone is not open.
 */
export async function openTicketsIn(ctx: ReadCtx, conversation: string): Promise<string[]> {
  const [ids = []] = await holdersOf(ctx, [conversationRefKey(conversation)]);
  if (!ids.length) return [];
  const tx = ctx.redis.multi();
  for (const id of ids) tx.hget(ctx.keys.ticket(id), 'state');
  const rows = (await tx.exec()) ?? [];
  return ids.filter((id, i) => {
    const raw = rows[i]?.[1];
    if (typeof raw !== 'string') return false;
    // A state that fails its schema is logged and the ticket left out: no route to a broken record.
    const state = readRecord(ctx, TicketStateSchema, raw, `${ctx.keys.ticket(id)} state`);
    return state.ok && !isClosedState(state.value);
  });
}

/** Whether a ticket exists, without reading it. */
export async function ticketExists(ctx: Pick<Ctx, 'redis' | 'keys'>, id: string): Promise<boolean> {
  if (!isTicketId(id)) return false;
  return (await ctx.redis.exists(ctx.keys.ticket(id))) === 1;
}

/** Every ticket's id, oldest first. */
export function allTicketIds(ctx: Pick<Ctx, 'redis' | 'keys'>): Promise<string[]> {
  return ctx.redis.zrange(ctx.keys.tickets(), 0, -1);
}

/** Tickets newest first; one whose record fails its schema is logged and left out. */
export async function listTickets(ctx: ReadCtx, limit = 100): Promise<Ticket[]> {
  const ids = await ctx.redis.zrevrange(ctx.keys.tickets(), 0, limit - 1);
  const tx = ctx.redis.multi();
  for (const id of ids) tx.hgetall(ctx.keys.ticket(id));
  const rows = (await tx.exec()) ?? [];
  return rows.flatMap(([, h], i) => {
    const t = fromHash(ctx, h as Record<string, string>, ctx.keys.ticket(ids[i] ?? ''));
    return t?.ok ? [t.value] : [];
  });
}

/**
 * Changes some fields of a ticket; other fields, written by others meanwhile, are untouched.
 * Answers the state it had before (JSON), or null when there is no such ticket.
 */
export async function updateTicket(
  ctx: StoreCtx,
  id: string,
  patch: Partial<Pick<Ticket, 'state' | 'title' | 'repo' | 'crew'>>,
): Promise<string | null> {
  const key = ctx.keys.ticket(id);
  // Lua so that a ticket that does not exist is not half-created by a stray update.
  const before = await ctx.redis.eval(
    "if redis.call('EXISTS', KEYS[1]) == 0 then return false end local s = redis.call('HGET', KEYS[1], 'state') redis.call('HSET', KEYS[1], unpack(ARGV)) return s",
    1,
    key,
    ...Object.entries(toHash({ ...patch, updatedAt: ctx.now() })).flat(),
  );
  return typeof before === 'string' ? before : null;
}

/** Which day counter a change of state adds to (issue 17): `waiting` is blocked on people. */
const EVENT_OF: Partial<Record<TicketState, TicketEvent>> = { done: 'done', waiting: 'blocked' };

/**
 * Sets a ticket's state; its data's lifetime follows (closed tickets expire, issue 14). A change
 * into done or waiting counts on the day's charts, once per change (setting the same state again
 * does not count).
 */
export async function setTicketState(
  ctx: StoreCtx & Pick<Ctx, 'config'>,
  id: string,
  state: TicketState,
): Promise<void> {
  const before = await updateTicket(ctx, id, { state });
  await applyRetention(ctx, id, state);
  const event = EVENT_OF[state];
  if (event && before !== null && before !== JSON.stringify(state))
    await recordDailyCounts(ctx, ticketCounts(event, ctx.now()));
}

/** Callers import it from here too; the reference index's owner is `refs.ts`. */
export { addTicketRefs } from './refs.ts';

export async function ticketAttachments(
  ctx: Pick<Ctx, 'redis' | 'keys'> & Partial<Pick<Ctx, 'log'>>,
  id: string,
): Promise<Attachment[]> {
  return readAttachments(
    ctx,
    await ctx.redis.lrange(ctx.keys.ticketCards(id), 0, -1),
    ctx.keys.ticketCards(id),
  );
}

/**
 * Notes that a session besides the ticket's executor acted on it (issue 17: the main session that
 * opened it, attached a card, sent a note or stopped it), so its turns show in the trajectory.
 */
export async function noteTicketSession(
  ctx: Pick<Ctx, 'redis' | 'keys'>,
  id: string,
  sessionId: string,
): Promise<void> {
  await ctx.redis.sadd(ctx.keys.ticketSessions(id), sessionId);
}

/** Sessions besides the executor's that worked on the ticket (`ticketSessions`). */
export function ticketSessionIds(ctx: Pick<Ctx, 'redis' | 'keys'>, id: string): Promise<string[]> {
  return ctx.redis.smembers(ctx.keys.ticketSessions(id));
}
