import { z } from 'zod';
import type { Ctx } from '../context.ts';
import { parseRecord } from '../store/parse-record.ts';
import type { Pause } from './ticket.ts';

type PauseCtx = Pick<Ctx, 'redis' | 'keys'>;

/** The stored shape of a pause (issue 20: read through zod, never cast). */
const PauseSchema = z.object({
  by: z.string(),
  at: z.number(),
  cardId: z.string().optional(),
  via: z.enum(['message', 'button', 'api', 'breaker', 'main']),
});

/**
 * R-D2: a person's pause is a key with no expiry. It survives every restart and is removed only
 * by `resumeTicket`, which only a person's `/resume` or the API reaches. Returns false when the
 * ticket was already paused (the first pause's author and time are kept).
 */
export async function pauseTicket(ctx: PauseCtx, ticketId: string, pause: Pause): Promise<boolean> {
  return (await ctx.redis.set(ctx.keys.pause(ticketId), JSON.stringify(pause), 'NX')) === 'OK';
}

/** Lifts a pause; false when the ticket was not paused. */
export async function resumeTicket(ctx: PauseCtx, ticketId: string): Promise<boolean> {
  return (await ctx.redis.del(ctx.keys.pause(ticketId))) === 1;
}

/** A ticket's pause, or undefined; a stored pause that fails its schema throws `StoredRecordError`. */
export async function getPause(
  ctx: PauseCtx & Pick<Ctx, 'log'>,
  ticketId: string,
): Promise<Pause | undefined> {
  const key = ctx.keys.pause(ticketId);
  const raw = await ctx.redis.get(key);
  if (!raw) return undefined;
  return toPause(parseRecord(ctx, PauseSchema, raw, key));
}

const toPause = ({ cardId, ...rest }: z.output<typeof PauseSchema>): Pause =>
  cardId === undefined ? rest : { ...rest, cardId };

/** The pauses of many tickets in one round trip (null where not paused); an invalid one throws as in `getPause`. */
export async function pausesOf(ctx: PauseCtx & Pick<Ctx, 'log'>, ids: string[]): Promise<(Pause | null)[]> {
  if (!ids.length) return [];
  const keys = ids.map((id) => ctx.keys.pause(id));
  const raw = await ctx.redis.mget(keys);
  return raw.map((r, i) => (r ? toPause(parseRecord(ctx, PauseSchema, r, keys[i] ?? '')) : null));
}

export async function isPaused(ctx: PauseCtx, ticketId: string): Promise<boolean> {
  return (await ctx.redis.exists(ctx.keys.pause(ticketId))) === 1;
}
