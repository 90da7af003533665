import type { Context } from 'hono';
import type { Ctx } from '../../context.ts';
import { clientAddress } from '../client-address.ts';

/** Failed sign-ins are counted in windows of this length (a fixed window per scope). */
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;

type ThrottleCtx = Pick<Ctx, 'redis' | 'keys' | 'config'>;

const scopes = (ip: string) => [`ip:${ip}`, 'all'];

/**
 * How long a sign-in waits before its token is checked (issue 31), from the failures in the
 * window: none up to `SIGN_IN_FAILURES_PER_IP` from this address, then `SIGN_IN_DELAY_MS`
 * doubling with each further one; past `SIGN_IN_FAILURES_GLOBAL` in all, every address waits the
 * most. Always capped at `SIGN_IN_DELAY_MAX_MS`: a guesser slows guessing, never locks anyone out.
 */
export function signInDelayMs(config: ThrottleCtx['config'], fromAddress: number, inAll: number): number {
  const max = config.SIGN_IN_DELAY_MAX_MS;
  const over = fromAddress - config.SIGN_IN_FAILURES_PER_IP;
  const own = over < 0 ? 0 : config.SIGN_IN_DELAY_MS * 2 ** Math.min(over, 30);
  return Math.min(max, inAll >= config.SIGN_IN_FAILURES_GLOBAL ? max : own);
}

/**
 * Counts this sign-in as a failure before anything else, then waits out the delay the failures
 * before it earn (`signInDelayMs`), and lets it through whatever the count: the right token passes
 * after at most `SIGN_IN_DELAY_MAX_MS` (a refusal, issue 14's 429, let anyone guessing keep the
 * operator out). Counted first, attempts sent side by side each wait longer than the one before,
 * so guessing in parallel gains nothing; `signInSucceeded` takes the count back.
 */
export async function waitForSignInTurn(c: Context, ctx: ThrottleCtx): Promise<number> {
  const tx = ctx.redis.multi();
  for (const scope of scopes(clientAddress(c, ctx.config))) {
    const key = ctx.keys.signInFailures(scope);
    tx.incr(key).pexpire(key, SIGN_IN_WINDOW_MS, 'NX');
  }
  const counted = (await tx.exec()) ?? [];
  const [own, all] = [counted[0]?.[1], counted[2]?.[1]].map((v) => Number(v ?? 1) - 1);
  const ms = signInDelayMs(ctx.config, own ?? 0, all ?? 0);
  if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
  return ms;
}

/**
 * A successful sign-in clears its address's count and takes its own back from the deployment's
 * (a typo earlier costs the operator nothing more).
 */
export async function signInSucceeded(c: Context, ctx: ThrottleCtx): Promise<void> {
  await ctx.redis
    .multi()
    .del(ctx.keys.signInFailures(`ip:${clientAddress(c, ctx.config)}`))
    .decr(ctx.keys.signInFailures('all'))
    .exec();
}
