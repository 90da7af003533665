import type { Ctx } from '../context.ts';

/** At most this many alerts a minute, whatever happens (a storm of failures is one page, not hundreds). */
export const ALERTS_PER_MINUTE = 10;
const ONCE_FOR_S = 7 * 24 * 3600;
const TIMEOUT_MS = 5000;
const TEXT_CHARS = 500;

type AlertCtx = Pick<Ctx, 'redis' | 'keys' | 'config' | 'log' | 'now'>;

/** Why operators are told: a ticket blocked, or a delivery failed for good. */
export interface AlertCause {
  kind: 'blocked' | 'delivery_failed';
  /** What makes the cause one: the ticket and when it blocked, the delivery's key. */
  cause: string;
  ticketId?: string | undefined;
  text: string;
}

/**
 * Issue 49 item 3: tells the operators' webhook (`ALERT_WEBHOOK_URL`) once per cause, at most
 * `ALERTS_PER_MINUTE` a minute, as `{ kind, ticketId, text, at, url }` (`url`: the ticket's panel
 * page when `PUBLIC_URL` is set). Never throws: an alert that cannot go out is logged.
 */
export async function alertOnce(ctx: AlertCtx, a: AlertCause): Promise<void> {
  const target = ctx.config.ALERT_WEBHOOK_URL;
  if (!target) return;
  try {
    const first = await ctx.redis.set(
      ctx.keys.alertSent(`${a.kind}:${a.cause}`),
      '1',
      'EX',
      ONCE_FOR_S,
      'NX',
    );
    if (first !== 'OK') return;
    const rate = ctx.keys.alertRate(String(Math.floor(ctx.now() / 60_000)));
    const [[, n] = []] = (await ctx.redis.multi().incr(rate).expire(rate, 120).exec()) ?? [];
    if (Number(n) > ALERTS_PER_MINUTE) {
      ctx.log.warn({ kind: a.kind, cause: a.cause }, 'alert not sent: more than the alerts a minute allows');
      return;
    }
    const base = ctx.config.PUBLIC_URL?.replace(/\/+$/, '');
    const body = {
      kind: a.kind,
      ticketId: a.ticketId ?? null,
      text: a.text.slice(0, TEXT_CHARS),
      at: ctx.now(),
      url: base && a.ticketId ? `${base}/panel/#/tickets/${encodeURIComponent(a.ticketId)}` : null,
    };
    const res = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
      redirect: 'error',
    });
    if (!res.ok) ctx.log.warn({ status: res.status, kind: a.kind }, 'alert webhook refused the alert');
  } catch (err) {
    ctx.log.warn({ err, kind: a.kind }, 'alert not sent');
  }
}
