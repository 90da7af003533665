import type { Context, MiddlewareHandler } from 'hono';
import type { Ctx } from '../../../context.ts';
import { HttpError, isHttpError } from '../../../errors/http-error.ts';
import { requestHost } from '../../client-address.ts';
import { readRawBody } from '../../raw-body.ts';
import { bearerAdmin, panelSessionOf } from '../panel-auth.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** bull-board's actions carry no body worth more than this (none of the ones we allow read one). */
export const MAX_BOARD_BYTES = 16 * 1024;

/** Where a signed-out browser is sent: the panel's sign-in, then its Queues page. */
export const SIGN_IN_FOR_BOARD = '/panel/?signin=required#/queues';

/**
 * Whether a cookie-authenticated write comes from this origin. bull-board's UI cannot send the
 * panel's CSRF header, so its writes are checked the way browsers allow: Chromium, Firefox and
 * Safari send `Origin` on every non-GET fetch and `Sec-Fetch-Site` on every request; a write with
 * neither (or a foreign one) is refused. With `SameSite=Strict` the cookie already stays home;
 * this is the second lock.
 */
export function sameOriginWrite(c: Context, config: Ctx['config']): boolean {
  const site = c.req.header('sec-fetch-site');
  if (site !== undefined && site !== 'same-origin') return false;
  const origin = c.req.header('origin');
  if (origin === undefined) return site === 'same-origin';
  return URL.canParse(origin) && new URL(origin).host === requestHost(c, config);
}

/** A page request (the board's HTML and its files) as opposed to a call of its JSON API. */
const isPage = (c: Context, base: string) => !c.req.path.startsWith(`${base}/api/`);

/**
 * Guards everything under the board (issue 17): the admin bearer token, or a live panel session.
 * Signed out, a page answers with the way to sign in and the API with 401. A write through the
 * cookie must come from this origin (`sameOriginWrite`); its body is capped before anything reads
 * it, and handed on to bull-board's adapter through Hono's body cache.
 */
export function boardGuard(ctx: Ctx, base: string): MiddlewareHandler {
  return async (c, next) => {
    const token = ctx.config.ADMIN_TOKEN;
    if (!token) throw new HttpError(401, 'admin_disabled', 'ADMIN_TOKEN is not set on this deployment');
    let signedIn = false;
    try {
      signedIn = bearerAdmin(c, token) || (await panelSessionOf(c, ctx)) !== null;
      if (
        signedIn &&
        !SAFE_METHODS.has(c.req.method) &&
        !c.req.header('authorization') &&
        !sameOriginWrite(c, ctx.config)
      )
        throw new HttpError(403, 'cross_origin', 'a queue board write must come from the panel itself');
    } catch (err) {
      if (!isHttpError(err) || err.status !== 401 || !isPage(c, base) || c.req.method !== 'GET') throw err;
    }
    if (!signedIn) {
      if (isPage(c, base) && c.req.method === 'GET') return c.redirect(SIGN_IN_FOR_BOARD, 303);
      throw new HttpError(401, 'unauthorized', 'sign in to the panel (or send the admin bearer token)');
    }
    if (!SAFE_METHODS.has(c.req.method)) {
      const raw = await readRawBody(c, MAX_BOARD_BYTES, 413);
      // Hono keeps a body it read as a promise under its kind; bull-board's adapter reads `json()`,
      // which parses the cached text instead of reading the stream again.
      (c.req.bodyCache as Record<string, unknown>).text = Promise.resolve(raw.toString('utf8'));
    }
    return next();
  };
}
