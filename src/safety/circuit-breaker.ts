import type { Ctx } from '../context.ts';
import { languageForTicket } from '../i18n/choose-language.ts';
import { hostText } from '../i18n/host-text.ts';
import type { OutboxJob } from '../outbox/effect.ts';
import { pauseTicket } from '../tickets/pause.ts';
import { getTicket, setTicketState } from '../tickets/ticket-store.ts';
import { tellRequester } from './tell-requester.ts';

const HOUR_MS = 3600_000;

/**
 * Counts one event of a ticket in a one-hour sliding window and says whether it fits under the
 * limit. The window starts no earlier than the last trip, so a person's /resume grants a fresh
 * budget. `member` dedupes: a retried delivery (same idempotency key) counts once. One script, so
 * two workers can't both take the last slot.
 */
const TAKE = `
local floor = math.max(tonumber(ARGV[1]) - tonumber(ARGV[2]), tonumber(redis.call('GET', KEYS[2]) or '0'))
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', floor)
if redis.call('ZSCORE', KEYS[1], ARGV[4]) then return 1 end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

export type BreakerLimit = 'messages' | 'model_requests';

function limitOf(ctx: Ctx, what: BreakerLimit): number {
  return what === 'messages'
    ? ctx.config.BREAKER_MESSAGES_PER_HOUR
    : ctx.config.BREAKER_MODEL_REQUESTS_PER_HOUR;
}

/**
 * Issue 8, bot loops: counts one message or model request of a ticket. Under the limit: true.
 * Over it: the breaker trips — the ticket is paused (a person's /resume lifts it, R-D2) and the
 * requester is asked once, naming the limit — and false: the caller stops.
 */
export async function takeBreakerSlot(
  ctx: Ctx,
  ticketId: string,
  what: BreakerLimit,
  member: string,
): Promise<boolean> {
  const { keys } = ctx;
  const limit = limitOf(ctx, what);
  const now = ctx.now();
  const args = [now, HOUR_MS, limit, member];
  const fits = await ctx.redis.eval(
    TAKE,
    2,
    keys.breakerWindow(ticketId, what),
    keys.breakerTrip(ticketId),
    ...args,
  );
  if (fits === 1) return true;
  await trip(ctx, ticketId, what, limit, now);
  return false;
}

async function trip(
  ctx: Ctx,
  ticketId: string,
  what: BreakerLimit,
  limit: number,
  now: number,
): Promise<void> {
  // Only the first trip (or a person's earlier pause) holds the ticket: asked once.
  const paused = await pauseTicket(
    ctx,
    ticketId,
    { by: 'circuit breaker', at: now, via: 'breaker' },
    `over ${limit} ${what === 'messages' ? 'messages' : 'model requests'} an hour`,
  );
  if (!paused) return;
  await ctx.redis.set(ctx.keys.breakerTrip(ticketId), String(now), 'PX', 2 * HOUR_MS);
  ctx.metrics.errors.inc({ where: 'circuit_breaker' });
  ctx.log.warn({ ticketId, limit: what, max: limit }, 'circuit breaker tripped: ticket paused');
  const ticket = await getTicket(ctx, ticketId);
  if (!ticket) return;
  await setTicketState(ctx, ticketId, 'waiting');
  const lang = await languageForTicket(ctx, ticket);
  const key = what === 'messages' ? 'breaker.messages' : 'breaker.model-requests';
  await tellRequester(
    ctx,
    ticket,
    { key: `breaker:${ticketId}:${now}`, kind: 'circuit_breaker' },
    hostText(lang, key, { ticket: ticketId, limit }),
  );
}

/** Effects that are messages people read; reactions, edits and thread resolutions are not counted. */
const MESSAGE_OPS = new Set([
  'feishu.reply',
  'feishu.send',
  'feishu.card.reply',
  'github.comment',
  'github.review_reply',
  'local.reply',
]);

/** The outbox's check before sending a ticket's message: false when the breaker holds it. */
export async function admitTicketMessage(ctx: Ctx, job: OutboxJob): Promise<boolean> {
  if (!job.ticketId || job.exemptFromPause || !MESSAGE_OPS.has(job.effect.op)) return true;
  return takeBreakerSlot(ctx, job.ticketId, 'messages', job.key);
}
