import { randomBytes } from 'node:crypto';
import type { Ctx } from '../context.ts';

type StoreCtx = Pick<Ctx, 'redis' | 'keys'>;

/** GitHub's manifest codes live an hour; a state older than that has nothing left to redeem. */
const STATE_TTL_SECONDS = 3600;
const STATE_FORM = /^[A-Za-z0-9_-]{32,64}$/;

/**
 * The owner of `githubAppState` (issue 16): the `state` of a manifest flow, bound to the panel
 * session that started it, so GitHub's redirect can only be redeemed by that session (CSRF), and
 * only once.
 */
export async function issueManifestState(ctx: StoreCtx, sessionId: string): Promise<string> {
  const state = randomBytes(24).toString('base64url');
  await ctx.redis.set(ctx.keys.githubAppState(state), sessionId, 'EX', STATE_TTL_SECONDS, 'NX');
  return state;
}

export type StateCheck = 'ok' | 'unknown' | 'other_session';

/**
 * Redeems a state: GETDEL takes it in one step, so two requests with the same state cannot both
 * pass. A state of another session is spent too (it was shown to someone else's browser).
 */
export async function redeemManifestState(
  ctx: StoreCtx,
  state: string,
  sessionId: string,
): Promise<StateCheck> {
  if (!STATE_FORM.test(state)) return 'unknown';
  const owner = await ctx.redis.getdel(ctx.keys.githubAppState(state));
  if (owner === null) return 'unknown';
  return owner === sessionId ? 'ok' : 'other_session';
}
