import type { Ctx } from '../context.ts';
import { languageForTicket } from '../i18n/choose-language.ts';
import { hostText } from '../i18n/host-text.ts';
import type { Lang } from '../i18n/lang.ts';
import { hasAcked } from '../tickets/acks.ts';
import { isPaused } from '../tickets/pause.ts';
import { getTicket, setTicketState } from '../tickets/ticket-store.ts';
import { forgetActivity, quietTickets } from './activity.ts';
import { alertOnce } from './alert-webhook.ts';
import { tellRequester } from './tell-requester.ts';

/** States in which silence means stuck: `waiting` waits for a person, the rest have ended. */
const ACTIVE = new Set(['open', 'working']);

/**
 * Issue 8, the watchdog: a ticket whose executor acknowledged a request and then took no step for
 * `STALL_AFTER_MS` is marked stalled — a host report of kind `stalled`, the ticket `waiting` for a
 * person — and its requester is told once, with the reason. Tickets
 * that ended, wait for a person or are paused are forgotten until their next step. Returns the
 * ids marked stalled.
 */
export async function watchStalls(ctx: Ctx): Promise<string[]> {
  const limit = ctx.config.STALL_AFTER_MS;
  const stalled: string[] = [];
  for (const { id, at } of await quietTickets(ctx, ctx.now() - limit, 200)) {
    const forget = () => forgetActivity(ctx, id, at);
    const ticket = await getTicket(ctx, id);
    if (!ticket || !ACTIVE.has(ticket.state) || (await isPaused(ctx, id))) {
      await forget();
      continue;
    }
    // Not acknowledged yet: the executor's first turn is still under way or queued.
    if (!(await hasAcked(ctx, id))) continue;
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
    await alertOnce(ctx, {
      kind: 'blocked',
      cause: `${id}:stalled:${at}`,
      ticketId: id,
      text: `${id} stalled: no step since ${new Date(Number(at)).toISOString()}`,
    });
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
