import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import type { Ctx } from '../../context.ts';
import { HttpError } from '../../errors/http-error.ts';
import { safeEqual } from '../auth.ts';
import { CSRF_HEADER, csrfTokenOf, type PanelSession, readSession, SESSION_COOKIE } from './panel-session.ts';
import { sessionAlive } from './session-store.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The signed-in panel session of a request, or null without a cookie; throws 401 on a cookie
 * that does not verify, has expired, or names a session that was ended (signed out, issue 14).
 */
export async function panelSessionOf(c: Context, ctx: Ctx): Promise<PanelSession | null> {
  const value = getCookie(c, SESSION_COOKIE);
  if (value === undefined) return null;
  const token = ctx.config.ADMIN_TOKEN ?? '';
  const now = ctx.now();
  const session = token ? readSession(token, value, now) : null;
  if (!session || !(await sessionAlive(ctx, session, now)))
    throw new HttpError(
      401,
      'session_invalid',
      'the panel session is forged, expired or ended; sign in again',
    );
  return session;
}

/** Whether the request carries the right admin bearer token; 401 for a wrong one. */
export function bearerAdmin(c: Context, token: string): boolean {
  const header = c.req.header('authorization');
  if (header === undefined) return false;
  const given = header.startsWith('Bearer ') ? header.slice(7) : '';
  if (!given || !safeEqual(given, token))
    throw new HttpError(401, 'unauthorized', 'missing or wrong bearer token');
  return true;
}

/**
 * Guards `/api/*` (and the panel's own API): the admin bearer token, or a live panel session.
 * A write through the cookie must also carry the session's CSRF token in `x-switchyard-csrf`
 * (with `SameSite=Strict`, a cross-site page can neither send the cookie nor read the token).
 * Without `ADMIN_TOKEN` configured every request is refused (CONTRACT: those answer 401).
 */
export function requireAdminOrPanel(ctx: Ctx): MiddlewareHandler {
  return async (c, next) => {
    const token = ctx.config.ADMIN_TOKEN;
    if (!token) throw new HttpError(401, 'admin_disabled', 'ADMIN_TOKEN is not set on this deployment');
    if (bearerAdmin(c, token)) return next();
    const session = await panelSessionOf(c, ctx);
    if (!session) throw new HttpError(401, 'unauthorized', 'missing or wrong bearer token');
    if (!SAFE_METHODS.has(c.req.method)) {
      const csrf = c.req.header(CSRF_HEADER) ?? '';
      if (!csrf) throw new HttpError(403, 'csrf_required', `a panel write needs the ${CSRF_HEADER} header`);
      if (!safeEqual(csrf, csrfTokenOf(token, session)))
        throw new HttpError(403, 'csrf_mismatch', `the ${CSRF_HEADER} header does not match this session`);
    }
    return next();
  };
}
