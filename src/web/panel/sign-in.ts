import type { Context, Handler } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import type { Ctx } from '../../context.ts';
import { safeEqual } from '../auth.ts';
import { newSession, SESSION_COOKIE, SESSION_TTL_MS } from './panel-session.ts';

const isHttps = (c: Context) =>
  new URL(c.req.url).protocol === 'https:' || c.req.header('x-forwarded-proto') === 'https';

/** A form posted from another site (login CSRF) is refused; browsers send `Origin` on POST. */
const sameOrigin = (c: Context) => {
  const origin = c.req.header('origin');
  if (!origin || origin === 'null') return origin === undefined;
  const host = c.req.header('x-forwarded-host') ?? c.req.header('host');
  return new URL(origin).host === host;
};

/**
 * `POST /panel/sign-in` from the sign-in form (`token`). Right token: an HTTP-only,
 * `SameSite=Strict` cookie holding a signed session (never the token) and back to the panel.
 * Wrong: back to the form with `?signin=failed`, after a short pause that slows guessing.
 */
export function signIn(ctx: Ctx): Handler {
  return async (c) => {
    const admin = ctx.config.ADMIN_TOKEN;
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const given = typeof form.token === 'string' ? form.token.trim() : '';
    if (!sameOrigin(c)) return c.text('cross-site sign-in refused', 403);
    if (!admin || !given || !safeEqual(given, admin)) {
      await new Promise((r) => setTimeout(r, 300));
      return c.redirect(admin ? '/panel/?signin=failed' : '/panel/?signin=disabled', 303);
    }
    const { value } = newSession(admin, ctx.now());
    setCookie(c, SESSION_COOKIE, value, {
      httpOnly: true,
      sameSite: 'Strict',
      path: '/',
      secure: isHttps(c),
      maxAge: Math.floor(SESSION_TTL_MS / 1000),
    });
    return c.redirect('/panel/', 303);
  };
}

/** `POST /panel/sign-out`: drops the cookie in this browser. */
export function signOut(): Handler {
  return (c) => {
    deleteCookie(c, SESSION_COOKIE, { path: '/', sameSite: 'Strict', httpOnly: true });
    return c.redirect('/panel/', 303);
  };
}
