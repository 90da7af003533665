import type { Ctx } from '../../context.ts';
import type { PanelSession } from './panel-session.ts';

/** Sessions kept at once; signing in past this ends the oldest (a bounded hash, issue 14). */
export const MAX_PANEL_SESSIONS = 50;

type StoreCtx = Pick<Ctx, 'redis' | 'keys'>;

/**
 * Records a new panel session server-side (issue 14): the signed cookie alone is not enough, so
 * signing out ends a session for good and "sign out everywhere" ends them all. Expired sessions
 * are pruned here, and the oldest beyond `MAX_PANEL_SESSIONS` dropped.
 */
export async function storeSession(ctx: StoreCtx, session: PanelSession, now: number): Promise<void> {
  const key = ctx.keys.panelSessions();
  const all = Object.entries(await ctx.redis.hgetall(key)).map(([id, exp]) => ({ id, exp: Number(exp) }));
  const alive = all.filter((s) => s.exp > now).sort((a, b) => b.exp - a.exp);
  const stale = [...all.filter((s) => !(s.exp > now)), ...alive.slice(MAX_PANEL_SESSIONS - 1)];
  const tx = ctx.redis.multi().hset(key, session.id, String(session.expiresAt));
  if (stale.length) tx.hdel(key, ...stale.map((s) => s.id));
  await tx.pexpireat(key, Math.max(session.expiresAt, ...alive.map((s) => s.exp))).exec();
}

/** Whether the session was started here and has not been ended (nor expired). */
export async function sessionAlive(ctx: StoreCtx, session: PanelSession, now: number): Promise<boolean> {
  const exp = await ctx.redis.hget(ctx.keys.panelSessions(), session.id);
  return exp !== null && Number(exp) === session.expiresAt && session.expiresAt > now;
}

/** Ends one session (sign-out). */
export async function endSession(ctx: StoreCtx, id: string): Promise<void> {
  await ctx.redis.hdel(ctx.keys.panelSessions(), id);
}

/** Ends every panel session of the deployment ("sign out everywhere"); answers how many. */
export async function endAllSessions(ctx: StoreCtx): Promise<number> {
  const key = ctx.keys.panelSessions();
  const rows = await ctx.redis.multi().hlen(key).del(key).exec();
  return Number(rows?.[0]?.[1] ?? 0);
}
