import type { Context, Handler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { Ctx } from '../../context.ts';
import { HttpError } from '../../errors/http-error.ts';
import { safeEqual } from '../auth.ts';
import { requestHost } from '../client-address.ts';
import { MAX_SIGN_IN_BYTES, readRawBody } from '../raw-body.ts';
import { bearerAdmin, panelSessionOf } from './panel-auth.ts';
import { newSession, readSession, SESSION_COOKIE, SESSION_TTL_MS } from './panel-session.ts';
import { endAllSessions, endSession, storeSession } from './session-store.ts';
import { signInSucceeded, waitForSignInTurn } from './sign-in-throttle.ts';

const isHttps = (c: Context) =>
  new URL(c.req.url).protocol === 'https:' || c.req.header('x-forwarded-proto') === 'https';

/** A form posted from another site (login CSRF) is refused; browsers send `Origin` on POST. */
const sameOrigin = (c: Context, config: Ctx['config']) => {
  const origin = c.req.header('origin');
  if (!origin || origin === 'null') return origin === undefined;
  return URL.canParse(origin) && new URL(origin).host === requestHost(c, config);
};

/** The form's `token`, from a body capped at a few KB before it is parsed (issue 14). */
async function tokenOf(c: Context): Promise<string> {
  const raw = await readRawBody(c, MAX_SIGN_IN_BYTES, 413);
  const type = c.req.header('content-type') ?? '';
  if (!type.startsWith('application/x-www-form-urlencoded')) return '';
  return new URLSearchParams(raw.toString('utf8')).get('token')?.trim() ?? '';
}

/**
 * `POST /panel/sign-in` from the sign-in form (`token`). Right token: an HTTP-only,
 * `SameSite=Strict` cookie holding a signed session (never the token), recorded server-side, and
 * back to the panel. Wrong: counted against the address and the deployment, and back to the form
 * with `?signin=failed`; past the limits every attempt waits first (`waitForSignInTurn`). An empty
 * token is answered at once and counted nowhere.
 */
export function signIn(ctx: Ctx): Handler {
  return async (c) => {
    const admin = ctx.config.ADMIN_TOKEN;
    if (!sameOrigin(c, ctx.config)) return c.text('cross-site sign-in refused', 403);
    const given = await tokenOf(c);
    if (!admin) return c.redirect('/panel/?signin=disabled', 303);
    // A form with no token cannot succeed: it is answered at once, and counts for nothing, so
    // empty posts cannot slow the operator's own sign-in.
    if (!given) return c.redirect('/panel/?signin=failed', 303);
    // Issue 31: failures slow every later attempt (capped), and the right token still passes.
    await waitForSignInTurn(c, ctx);
    if (!safeEqual(given, admin)) return c.redirect('/panel/?signin=failed', 303);
    await signInSucceeded(c, ctx);
    const { session, value } = newSession(admin, ctx.now());
    await storeSession(ctx, session, ctx.now());
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

const dropCookie = (c: Context) =>
  deleteCookie(c, SESSION_COOKIE, { path: '/', sameSite: 'Strict', httpOnly: true });

/** `POST /panel/sign-out`: ends this browser's session server-side and drops the cookie. */
export function signOut(ctx: Ctx): Handler {
  return async (c) => {
    const value = getCookie(c, SESSION_COOKIE);
    const admin = ctx.config.ADMIN_TOKEN;
    const session = value && admin ? readSession(admin, value, ctx.now()) : null;
    if (session) await endSession(ctx, session.id);
    dropCookie(c);
    return c.redirect('/panel/', 303);
  };
}

/**
 * `POST /panel/sign-out-everywhere`: ends every panel session of the deployment (a lost laptop,
 * a leaked cookie). Needs a live session from this origin, or the admin bearer token (then the
 * answer is JSON `{ ended }`).
 */
export function signOutEverywhere(ctx: Ctx): Handler {
  return async (c) => {
    const admin = ctx.config.ADMIN_TOKEN;
    if (!admin) throw new HttpError(401, 'admin_disabled', 'ADMIN_TOKEN is not set on this deployment');
    const bearer = bearerAdmin(c, admin);
    if (!bearer) {
      if (!sameOrigin(c, ctx.config)) throw new HttpError(403, 'cross_site', 'cross-site sign-out refused');
      if (!(await panelSessionOf(c, ctx))) throw new HttpError(401, 'unauthorized', 'not signed in');
    }
    const ended = await endAllSessions(ctx);
    dropCookie(c);
    return bearer ? c.json({ ended }) : c.redirect('/panel/', 303);
  };
}
