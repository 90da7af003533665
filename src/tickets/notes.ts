import { z } from 'zod';
import type { Ctx } from '../context.ts';
import { readRecord } from '../store/parse-record.ts';
import { moveIntoBatch } from '../store/take-batch.ts';

/**
 * A note for a ticket's executor (R-B5): routing facts from the main session (`main`) or a
 * message from a peer executor of its crew (`peer:T3`). Notes grant nothing; they are read with
 * the executor's next turn.
 */
export const TicketNoteSchema = z.object({ from: z.string(), text: z.string(), at: z.number() });
export type TicketNote = z.infer<typeof TicketNoteSchema>;

type NotesCtx = Pick<Ctx, 'redis' | 'keys' | 'now'>;

/** The owner of ticket notes (issue 20): queues one for the ticket's executor's next turn. */
export async function queueNote(ctx: NotesCtx, ticketId: string, from: string, text: string): Promise<void> {
  const note: TicketNote = { from, text, at: ctx.now() };
  await ctx.redis.rpush(ctx.keys.ticketNotes(ticketId), JSON.stringify(note));
}

/**
 * Takes the ticket's waiting notes into this turn, or returns the ones this turn already took (a
 * resumed turn sees the same notes; one script, so a note is delivered to one turn). A stored
 * note that fails its schema is logged and left out rather than stopping the ticket.
 */
export async function takeNotes(
  ctx: Pick<Ctx, 'redis' | 'keys' | 'log'>,
  ticketId: string,
  turnId: string,
): Promise<string[]> {
  return (await takeTicketNotes(ctx, ticketId, turnId)).map((n) => n.text);
}

/** `takeNotes` with who sent each note (the host's own notes read differently, issue 28). */
export async function takeTicketNotes(
  ctx: Pick<Ctx, 'redis' | 'keys' | 'log'>,
  ticketId: string,
  turnId: string,
): Promise<TicketNote[]> {
  const key = ctx.keys.turnNotes(turnId);
  const raws = await moveIntoBatch(ctx.redis, { key: ctx.keys.ticketNotes(ticketId), type: 'list' }, key);
  return raws.flatMap((raw) => {
    const r = readRecord(ctx, TicketNoteSchema, raw, key);
    return r.ok ? [r.value] : [];
  });
}

/** Whether notes wait for the ticket's next turn (one a paused turn left for after the resume among them). */
export async function hasWaitingNotes(ctx: Pick<Ctx, 'redis' | 'keys'>, ticketId: string): Promise<boolean> {
  return (await ctx.redis.llen(ctx.keys.ticketNotes(ticketId))) > 0;
}

/** Forgets the notes a settled turn took. */
export async function dropTurnNotes(ctx: Pick<Ctx, 'redis' | 'keys'>, turnId: string): Promise<void> {
  await ctx.redis.del(ctx.keys.turnNotes(turnId));
}
