import { z } from 'zod';
import type { Ctx } from '../context.ts';
import { parseRecord, readRecord } from '../store/parse-record.ts';
import type { Pause } from './ticket.ts';

type PauseCtx = Pick<Ctx, 'redis' | 'keys'>;

/** The stored shape of a pause (issue 20: read through zod, never cast). */
const PauseSchema = z.object({
  by: z.string(),
  at: z.number(),
  cardId: z.string().optional(),
  via: z.enum(['message', 'button', 'api', 'breaker', 'main', 'budget']),
  reason: z.string().exactOptional(),
});

/** One pause or resume of a ticket, as its trajectory shows it (issue 17). */
const PauseEventSchema = z.object({
  kind: z.enum(['pause', 'resume']),
  at: z.number(),
  by: z.string(),
  via: z.string(),
  detail: z.string().optional(),
});
export type PauseEvent = z.infer<typeof PauseEventSchema>;

/** Who lifted a pause and how; `via` as for a pause, `api` for the admin API. */
export interface Lift {
  by: string;
  at: number;
  via: Pause['via'];
}

/**
 * Sets the pause unless one holds, and logs it only then: both or neither. Any other pause
 * (ARGV[3] = '1': a person's, the main session's stop, the breaker's) takes the place of a
 * budget's, which lifts itself when the budget allows: the other must hold until a person lifts
 * it (R-D2; issue 46 item 6: a stop on a ticket paused for its budget held only until the budget
 * was raised).
 */
const PAUSE = `
local current = redis.call('GET', KEYS[1])
if current and ARGV[3] == '1' and cjson.decode(current).via == 'budget' then current = false end
if not current then
  redis.call('SET', KEYS[1], ARGV[1])
  redis.call('RPUSH', KEYS[2], ARGV[2])
  return 1
end
return 0
`;

/**
 * Lifts the pause and logs who did, only when there was one — and, given ARGV[2], only when its
 * `via` is that: the budget's release lifts a budget's pause and never one that took its place
 * after the release read it (issue 46 item 6: a person's /pause landing in between was lifted).
 */
const RESUME = `
local current = redis.call('GET', KEYS[1])
if not current then return 0 end
if ARGV[2] ~= '' and cjson.decode(current).via ~= ARGV[2] then return 0 end
if redis.call('DEL', KEYS[1]) == 1 then
  if ARGV[1] ~= '' then redis.call('RPUSH', KEYS[2], ARGV[1]) end
  return 1
end
return 0
`;

/**
 * R-D2: a person's pause is a key with no expiry. It survives every restart and is removed only
 * by `resumeTicket`, which only a person's `/resume` or the API reaches. Returns false when the
 * ticket was already paused (the first pause's author and time are kept) — except that any other
 * pause replaces a budget's, which would otherwise lift itself. `detail` says more in
 * the ticket's pause log (the breaker's limit).
 */
export async function pauseTicket(
  ctx: PauseCtx,
  ticketId: string,
  pause: Pause,
  detail?: string,
): Promise<boolean> {
  const event: PauseEvent = { kind: 'pause', at: pause.at, by: pause.by, via: pause.via };
  if (detail) event.detail = detail;
  const keys = [ctx.keys.pause(ticketId), ctx.keys.pauseLog(ticketId)];
  const args = [JSON.stringify(pause), JSON.stringify(event), pause.via === 'budget' ? '0' : '1'];
  return (await ctx.redis.eval(PAUSE, 2, ...keys, ...args)) === 1;
}

/**
 * Lifts a pause, logging who lifted it when told; false when the ticket was not paused, or, with
 * `only`, when its pause is not one made `via` that (checked in the same script as the lift).
 */
export async function resumeTicket(
  ctx: PauseCtx,
  ticketId: string,
  lift?: Lift,
  only?: Pause['via'],
): Promise<boolean> {
  const event = lift ? JSON.stringify({ kind: 'resume', ...lift } satisfies PauseEvent) : '';
  const keys = [ctx.keys.pause(ticketId), ctx.keys.pauseLog(ticketId)];
  return (await ctx.redis.eval(RESUME, 2, ...keys, event, only ?? '')) === 1;
}

/** Every pause and resume of a ticket, oldest first; an invalid entry is logged and skipped. */
export async function pauseLog(ctx: PauseCtx & Pick<Ctx, 'log'>, ticketId: string): Promise<PauseEvent[]> {
  const key = ctx.keys.pauseLog(ticketId);
  const out: PauseEvent[] = [];
  for (const raw of await ctx.redis.lrange(key, 0, -1)) {
    const read = readRecord(ctx, PauseEventSchema, raw, key);
    if (read.ok) out.push(read.value);
  }
  return out;
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

/** Of these tickets, the ones paused (one round trip). */
export async function pausedAmong(ctx: PauseCtx, ticketIds: string[]): Promise<Set<string>> {
  if (!ticketIds.length) return new Set();
  const tx = ctx.redis.pipeline();
  for (const id of ticketIds) tx.exists(ctx.keys.pause(id));
  const rows = (await tx.exec()) ?? [];
  return new Set(ticketIds.filter((_, i) => Number(rows[i]?.[1] ?? 0) === 1));
}
