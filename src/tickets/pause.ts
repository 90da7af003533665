import type { Ctx } from '../context.ts';
import type { Pause } from './ticket.ts';

type PauseCtx = Pick<Ctx, 'redis' | 'keys'>;

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

export async function getPause(ctx: PauseCtx, ticketId: string): Promise<Pause | undefined> {
  const raw = await ctx.redis.get(ctx.keys.pause(ticketId));
  return raw ? (JSON.parse(raw) as Pause) : undefined;
}

export async function isPaused(ctx: PauseCtx, ticketId: string): Promise<boolean> {
  return (await ctx.redis.exists(ctx.keys.pause(ticketId))) === 1;
}
