import type { Context } from 'hono';
import type { Ctx } from '../../context.ts';
import { HttpError } from '../../errors/http-error.ts';

/** Failed sign-ins are counted in windows of this length (a fixed window per scope). */
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;

/**
 * The address a request came from: the socket's peer. `X-Forwarded-For` is not trusted (anyone
 * can send it); behind a reverse proxy every client shares the proxy's address, so the per-IP
 * limit then acts as a second global one.
 */
export function clientAddress(c: Context): string {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress ?? 'unknown';
}

const scopes = (ip: string) => [`ip:${ip}`, 'all'];

/**
 * Refuses a sign-in with 429 while this address, or the deployment as a whole, has had too many
 * failed sign-ins in the window (issue 14): even the right token is refused then, so guessing
 * learns nothing. `Retry-After` says when the window ends.
 */
export async function assertSignInAllowed(c: Context, ctx: Ctx): Promise<void> {
  const [ipKey, allKey] = scopes(clientAddress(c)).map((s) => ctx.keys.signInFailures(s)) as [string, string];
  const rows = (await ctx.redis.multi().get(ipKey).pttl(ipKey).get(allKey).pttl(allKey).exec()) ?? [];
  const [ipCount, ipTtl, allCount, allTtl] = rows.map(([, v]) => Number(v ?? 0));
  const limits = [
    {
      over: (ipCount ?? 0) >= ctx.config.SIGN_IN_FAILURES_PER_IP,
      ttl: ipTtl ?? 0,
      what: 'from this address',
    },
    { over: (allCount ?? 0) >= ctx.config.SIGN_IN_FAILURES_GLOBAL, ttl: allTtl ?? 0, what: 'in all' },
  ];
  const hit = limits.find((l) => l.over);
  if (!hit) return;
  const seconds = Math.max(1, Math.ceil((hit.ttl > 0 ? hit.ttl : SIGN_IN_WINDOW_MS) / 1000));
  c.header('retry-after', String(seconds));
  throw new HttpError(
    429,
    'sign_in_throttled',
    `too many failed sign-ins ${hit.what}; try again in ${seconds} s`,
    {
      retryAfter: seconds,
    },
  );
}

/** Counts one failed sign-in against the address and the deployment. */
export async function recordSignInFailure(c: Context, ctx: Ctx): Promise<void> {
  const tx = ctx.redis.multi();
  for (const scope of scopes(clientAddress(c))) {
    const key = ctx.keys.signInFailures(scope);
    tx.incr(key).pexpire(key, SIGN_IN_WINDOW_MS, 'NX');
  }
  await tx.exec();
}
