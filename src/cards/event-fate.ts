import { z } from 'zod';
import { CardSource, type TriggerCard } from './card.ts';

/**
 * What became of one incoming event (issue 33 item 2, the panel's events inbox): `received` —
 * stored, routing not yet done; `waiting` — a candidate for the main session; `opened` and
 * `attached` — a ticket holds it; `command` — pause, resume or a chat setting; `ignored` — nothing
 * to do (the bot's own message, no mention, an event type we don't handle); `refused` — its author
 * may not do what it asks, or a check failed (permission, signature, rate limit); `duplicate` — a
 * delivery or a body already seen (a redelivery or a replay).
 */
export const EventFateSchema = z.enum([
  'received',
  'waiting',
  'opened',
  'attached',
  'command',
  'ignored',
  'refused',
  'duplicate',
]);
export type EventFate = z.infer<typeof EventFateSchema>;

export interface EventEntry {
  /** The card id; for an event that made no card, the id it would have had (`cardIdFor`). */
  id: string;
  /** First arrival (ms): the inbox's order. */
  at: number;
  updatedAt: number;
  channel: CardSource;
  /** The card's kind, or the channel's event type when no card was made. */
  kind?: string;
  repo?: string;
  chat?: string;
  /** The author's id (GitHub login, Feishu open_id, local name) and display name. */
  person?: string;
  personName?: string;
  /** The stored card, when there is one (its text is at `/api/cards/:id/text`). */
  cardId?: string;
  fate: EventFate;
  tickets?: string[];
  /** Why: the explicit reference that attached it, the rule that ignored or refused it. */
  reason?: string;
}

/** One inbox entry as stored (issue 20: read and written through this schema). */
export const EventEntrySchema = z.object({
  id: z.string().min(1),
  at: z.number(),
  updatedAt: z.number(),
  channel: CardSource,
  kind: z.string().exactOptional(),
  repo: z.string().exactOptional(),
  chat: z.string().exactOptional(),
  person: z.string().exactOptional(),
  personName: z.string().exactOptional(),
  cardId: z.string().exactOptional(),
  fate: EventFateSchema,
  tickets: z.array(z.string()).exactOptional(),
  reason: z.string().max(2000).exactOptional(),
}) satisfies z.ZodType<EventEntry, unknown>;

/** What a writer says about a fate; the rest comes from the card. */
export interface FateNote {
  fate: EventFate;
  reason?: string | undefined;
  tickets?: string[] | undefined;
}

/** Where a card came from and who wrote it, as the inbox files it. */
export function placeOfCard(card: TriggerCard): Pick<EventEntry, 'repo' | 'chat' | 'person' | 'personName'> {
  const o = card.origin;
  const name =
    card.author.name && card.author.name !== card.author.id ? { personName: card.author.name } : {};
  return {
    ...(o.source === 'github' ? { repo: o.repo } : { chat: o.chatId }),
    person: card.author.id,
    ...name,
  };
}

/**
 * The entry for a card's fate now. `ids.id` names another entry than the card's (a duplicate's
 * own, first seen now); `ids.cardId` the stored card it links to, `null` when none was stored.
 */
export function entryOfCard(
  card: TriggerCard,
  note: FateNote,
  now: number,
  ids: { id?: string; cardId?: string | null } = {},
): EventEntry {
  const id = ids.id ?? card.id;
  const cardId = ids.cardId === undefined ? card.id : ids.cardId;
  return {
    id,
    at: id === card.id ? card.receivedAt : now,
    updatedAt: now,
    channel: card.source,
    kind: card.kind,
    ...placeOfCard(card),
    ...(cardId ? { cardId } : {}),
    fate: note.fate,
    ...(note.tickets?.length ? { tickets: note.tickets } : {}),
    ...(note.reason ? { reason: note.reason.slice(0, 2000) } : {}),
  };
}

/** The inbox's filters (`GET /api/events`): each given one must match. */
export interface EventFilter {
  channel?: string | undefined;
  repo?: string | undefined;
  chat?: string | undefined;
  person?: string | undefined;
  fate?: EventFate | undefined;
}

const same = (a: string | undefined, b: string) => a !== undefined && a.toLowerCase() === b.toLowerCase();

/** Whether an entry passes the filters; repositories and people compare without case. */
export function matchesFilter(e: EventEntry, f: EventFilter): boolean {
  if (f.channel && e.channel !== f.channel) return false;
  if (f.fate && e.fate !== f.fate) return false;
  if (f.repo && !same(e.repo, f.repo)) return false;
  if (f.chat && e.chat !== f.chat) return false;
  if (f.person && !same(e.person, f.person) && !same(e.personName, f.person)) return false;
  return true;
}
