import type { Ctx } from '../context.ts';
import { languageForTicket } from '../i18n/choose-language.ts';
import { hostText } from '../i18n/host-text.ts';
import type { Lang } from '../i18n/lang.ts';
import { isPaused } from '../tickets/pause.ts';
import { getTicket, setTicketState } from '../tickets/ticket-store.ts';
import { tellRequester } from './tell-requester.ts';

/** States in which silence means stuck: `waiting` waits for a person, the rest have ended. */
const ACTIVE = new Set(['open', 'working']);

/** Forgets a ticket's last step only if no newer step came meanwhile (scores are step times). */
const FORGET_IF_UNCHANGED = `
if redis.call('ZSCORE', KEYS[1], ARGV[1]) == ARGV[2] then return redis.call('ZREM', KEYS[1], ARGV[1]) end
return 0
`;

/**
 * Issue 8, the watchdog: a ticket whose executor acknowledged a request and then took no step for
 * `STALL_AFTER_MS` is marked stalled — a host report of kind `stalled`, the ticket `waiting` for a
 * person — and its requester is told once, with the reason. Tickets
 * that ended, wait for a person or are paused are forgotten until their next step. Returns the
 * ids marked stalled.
 */
export async function watchStalls(ctx: Ctx): Promise<string[]> {
  const { keys } = ctx;
  const limit = ctx.config.STALL_AFTER_MS;
  const quiet = await ctx.redis.zrangebyscore(
    keys.ticketActivity(),
    '-inf',
    ctx.now() - limit,
    'WITHSCORES',
    'LIMIT',
    0,
    200,
  );
  const stalled: string[] = [];
  for (let i = 0; i + 1 < quiet.length; i += 2) {
    const id = quiet[i] as string;
    const at = quiet[i + 1] as string;
    const forget = () => ctx.redis.eval(FORGET_IF_UNCHANGED, 1, keys.ticketActivity(), id, at);
    const ticket = await getTicket(ctx, id);
    if (!ticket || !ACTIVE.has(ticket.state) || (await isPaused(ctx, id))) {
      await forget();
      continue;
    }
    // Not acknowledged yet: the executor's first turn is still under way or queued.
    if (!(await ctx.redis.hlen(keys.ticketAcked(id)))) continue;
    const lang = await languageForTicket(ctx, ticket);
    await tellRequester(
      ctx,
      ticket,
      { key: `stalled:${id}:${at}`, kind: 'stalled' },
      hostText(lang, 'stall.notice', {
        ticket: id,
        span: span(lang, limit),
        last: new Date(Number(at)).toISOString(),
      }),
    );
    await setTicketState(ctx, id, 'waiting');
    await forget();
    ctx.log.warn({ ticketId: id, lastStep: Number(at) }, 'ticket stalled');
    stalled.push(id);
  }
  return stalled;
}

/** `15 minutes`, or `2 seconds` for limits under a minute. */
function span(lang: Lang, ms: number): string {
  return ms >= 60_000
    ? hostText(lang, 'span.minutes', { n: Math.round(ms / 60_000) })
    : hostText(lang, 'span.seconds', { n: Math.max(1, Math.round(ms / 1000)) });
}
