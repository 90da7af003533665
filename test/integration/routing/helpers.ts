import type { CardDraft } from '../../../src/cards/card.ts';
import { ingest, loadCard } from '../../../src/cards/ingest.ts';
import type { Ctx } from '../../../src/context.ts';
import { loadRouteOutcome, type RouteOutcome } from '../../../src/router/route-outcome.ts';
import { createTicket, listTickets, ticketAttachments } from '../../../src/tickets/ticket-store.ts';
import { waitFor } from '../../kit/app.ts';

let seq = 0;

/** A local-chat message as the panel's chat would ingest it. */
export function localMessage(
  text: string,
  opts: { replyTo?: string; request?: boolean; user?: string; chat?: string } = {},
): CardDraft {
  const id = `lm-test-${process.pid}-${++seq}`;
  const chat = opts.chat ?? 'room';
  return {
    source: 'local',
    kind: 'message',
    eventId: id,
    author: { id: opts.user ?? 'ada', name: opts.user ?? 'ada', type: 'person' },
    origin: {
      source: 'local',
      chatId: chat,
      messageId: id,
      ...(opts.replyTo ? { rootId: opts.replyTo } : {}),
    },
    conversation: `local:${chat}`,
    ...(opts.replyTo ? { replyTo: opts.replyTo } : {}),
    request: opts.request ?? !opts.replyTo,
    refs: opts.replyTo ? [{ type: 'message', id: opts.replyTo }] : [],
    text,
  };
}

export async function send(ctx: Ctx, draft: CardDraft): Promise<string> {
  const r = await ingest(ctx, draft);
  if (r.kind !== 'new') throw new Error('expected a new card');
  return r.card.id;
}

/** The bot's messages in a local chat, oldest first. */
export async function botMessages(
  ctx: Ctx,
  chat = 'room',
): Promise<{ id: string; op: string; text: string; messageId: string }[]> {
  return (await ctx.redis.lrange(ctx.keys.localChat(chat), 0, -1)).map((s) => JSON.parse(s));
}

/** How routing placed a card (its `cardRouted` record), or undefined before it was routed. */
export function routedOf(ctx: Ctx, cardId: string): Promise<RouteOutcome | undefined> {
  return loadRouteOutcome(ctx, cardId);
}

/**
 * The ticket a request card opened, waited for: tests take ticket ids from what happened rather
 * than assuming `T1` (issue 20: each test stands alone, in any order).
 */
export function ticketOpenedBy(ctx: Ctx, cardId: string): Promise<string> {
  return waitFor(async () => {
    for (const t of await listTickets(ctx)) if (t.openedBy === cardId) return t.id;
    return undefined;
  }, `the ticket opened by ${cardId}`);
}

/** The ids of the cards attached to a ticket, oldest first. */
export async function ticketCardIds(ctx: Ctx, ticketId: string): Promise<string[]> {
  return (await ticketAttachments(ctx, ticketId)).map((a) => a.cardId);
}

/**
 * The one ticket of this test's key prefix, waited for: for a test whose request came in through
 * a webhook (no card id at hand) and opened exactly one ticket. Fails if there are more.
 */
export async function onlyTicket(ctx: Ctx): Promise<string> {
  const tickets = await waitFor(async () => {
    const all = await listTickets(ctx);
    return all.length ? all : undefined;
  }, 'a ticket');
  if (tickets.length !== 1)
    throw new Error(`expected one ticket, found ${tickets.map((t) => t.id).join(', ')}`);
  return (tickets[0] as { id: string }).id;
}

/**
 * An open ticket in a local chat, opened from a bot's card (routing ignores bots, so nothing else
 * happens to it). Issue 18: with it, an unreferenced request in that chat is a candidate for the
 * main session rather than a ticket opened by code.
 */
export async function openTicketIn(ctx: Ctx, chat = 'room'): Promise<string> {
  const seed = await send(ctx, { ...localMessage('seed', { chat }), author: { id: 'ci', type: 'bot' } });
  const card = await loadCard(ctx, seed);
  if (!card) throw new Error('the seed card was not stored');
  return (await createTicket(ctx, card, { why: 'test seed' })).id;
}
