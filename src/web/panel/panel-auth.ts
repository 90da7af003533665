import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { HttpError } from '../../errors/http-error.ts';
import { safeEqual } from '../auth.ts';
import { CSRF_HEADER, csrfTokenOf, type PanelSession, readSession, SESSION_COOKIE } from './panel-session.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The signed-in panel session of a request, or null; throws 401 on a cookie that does not verify. */
export function panelSessionOf(c: Context, token: string, now: number): PanelSession | null {
  const value = getCookie(c, SESSION_COOKIE);
  if (value === undefined) return null;
  const session = readSession(token, value, now);
  if (!session)
    throw new HttpError(401, 'session_invalid', 'the panel session is forged or expired; sign in again');
  return session;
}

/**
 * Guards `/api/*` (and the panel's own API): the admin bearer token, or a panel session cookie.
 * A write through the cookie must also carry the session's CSRF token in `x-switchyard-csrf`
 * (with `SameSite=Strict`, a cross-site page can neither send the cookie nor read the token).
 * Without `ADMIN_TOKEN` configured every request is refused (CONTRACT: those answer 401).
 */
export function requireAdminOrPanel(token: string | undefined, now = () => Date.now()): MiddlewareHandler {
  return async (c, next) => {
    if (!token) throw new HttpError(401, 'admin_disabled', 'ADMIN_TOKEN is not set on this deployment');
    const header = c.req.header('authorization');
    if (header !== undefined) {
      const given = header.startsWith('Bearer ') ? header.slice(7) : '';
      if (!given || !safeEqual(given, token))
        throw new HttpError(401, 'unauthorized', 'missing or wrong bearer token');
      return next();
    }
    const session = panelSessionOf(c, token, now());
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
