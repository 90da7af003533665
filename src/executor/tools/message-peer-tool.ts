import { z } from 'zod';
import { countWords, LIMITS } from '../../router/words.ts';
import { defineTool, toolError, toolOk } from '../../session/tool.ts';
import { queueNote } from '../../tickets/notes.ts';
import { isPaused } from '../../tickets/pause.ts';
import type { Ticket } from '../../tickets/ticket.ts';
import { TicketIdSchema } from '../../tickets/ticket-id.ts';
import { getTicket, listTickets } from '../../tickets/ticket-store.ts';
import { scheduleTurn } from '../schedule-turn.ts';
import type { TurnScope } from '../turn-scope.ts';

const PEERS_MAX = 10;

/** Where a ticket works: its repository and the repository or chat it was opened in. */
function placesOf(t: Ticket): string[] {
  const places = t.repo ? [`repo:${t.repo.toLowerCase()}`] : [];
  const o = t.origin;
  places.push(o.source === 'github' ? `repo:${o.repo.toLowerCase()}` : `${o.source}:${o.chatId}`);
  return places;
}

/**
 * Other open tickets running the same crew: the executors a `mesh` crew may write to (R-G4).
 * Issue 45: only those of the ticket's own repository or chat — a peer in another repository
 * was a channel for one repository's facts (a private one's) into another's ticket, and for
 * words its steerers never wrote.
 */
export async function peersOf(scope: TurnScope): Promise<Ticket[]> {
  const crew = scope.artifacts?.crew.name ?? 'default';
  const mine = new Set(placesOf(scope.ticket));
  return (await listTickets(scope.rt.ctx, 200)).filter(
    (t) =>
      t.id !== scope.ticket.id &&
      t.crew?.name === crew &&
      t.state !== 'done' &&
      t.state !== 'cancelled' &&
      placesOf(t).some((p) => mine.has(p)),
  );
}

/**
 * `message_peer({ ticket?, text })`, for `mesh` crews only (R-G4): facts for another executor of
 * the same crew (or, without `ticket`, for each of them), at most 100 words. Delivered like the
 * main session's notes (R-B5): it grants nothing, and wakes the peer unless it is paused.
 */
export function messagePeerTool(scope: TurnScope) {
  const { ctx } = scope.rt;
  return defineTool({
    name: 'message_peer',
    description:
      'Send facts to another executor of your crew (its ticket id), or to all of them without one. At most 100 words; it grants no permission.',
    parameters: z.object({ ticket: TicketIdSchema.optional(), text: z.string().min(1) }),
    async run({ ticket, text }) {
      const words = countWords(text);
      if (words > LIMITS.crossTicketNote) return toolError(`the message has ${words} words; at most 100`);
      const peers = await peersOf(scope);
      const to = ticket ? peers.filter((p) => p.id === ticket) : peers.slice(0, PEERS_MAX);
      if (ticket && !to.length) {
        const exists = await getTicket(ctx, ticket);
        return toolError(
          exists
            ? `${ticket} is not an open ticket of your crew in this repository or chat`
            : `ticket ${ticket} does not exist`,
        );
      }
      if (!to.length) return toolError('no other open ticket of this repository or chat runs your crew');
      const note = `From ${scope.ticket.id}'s executor (a peer of your crew): ${text}`;
      for (const peer of to) {
        await queueNote(ctx, peer.id, `peer:${scope.ticket.id}`, note);
        if (!(await isPaused(ctx, peer.id))) await scheduleTurn(ctx, peer.id);
      }
      return toolOk(`message queued for ${to.map((p) => p.id).join(', ')}`);
    },
  });
}
