import type { MiddlewareHandler } from 'hono';

/**
 * The board's Content-Security-Policy: like the panel's, only this origin. Two differences, both
 * for bull-board's page: `base-uri 'self'` (it sets `<base href>` to its mount path) and
 * `font-src 'self'` (its fonts fall back to the system's once the Google Fonts link is gone).
 * No inline script or style is allowed, and none is needed: its UI runs from its own files and
 * styles elements through the DOM, which a CSP does not govern. The one inline `<style>` left, in
 * the Redis logo of its Redis-details button, goes with that button (`hideRedisDetails`).
 */
export const BOARD_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; " +
  "connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'";

/** The stylesheet link bull-board's page template puts in: a request to Google for every view. */
const FONT_LINK_START = '<link href="https://fonts.googleapis.com/';
/** Its "Loading" placeholder, styled inline, sits between these; React replaces it on start. */
const ROOT_OPEN = '<div id="root">';
const FIRST_SCRIPT = '<script defer';
/**
 * Issue 49: a link back to the panel on every board page, outside bull-board's React root (which
 * replaces what is inside it), styled by a file of this origin (`BOARD_CSP` allows no inline
 * style). bull-board's own "misc links" sit behind a menu button where nobody finds them.
 */
const BACK_STYLE = '<link rel="stylesheet" href="/panel/assets/board-back.css" />';
const BACK_LINK = '<a id="back-to-panel" href="/panel/#/queues">← Switchyard panel</a>';

/**
 * bull-board's page (its own template, found by plain search) without the Google Fonts link,
 * with a plain-text placeholder instead of its inline-styled one and a link back to the panel
 * (`BACK_LINK`), so the page asks nothing of
 * another origin and breaks no rule of `BOARD_CSP` (`queue-board-page.test.ts` checks the result).
 */
export function boardPageHtml(html: string): string {
  let out = html;
  const font = out.indexOf(FONT_LINK_START);
  const fontEnd = font < 0 ? -1 : out.indexOf('>', font);
  if (fontEnd >= 0) out = out.slice(0, font) + out.slice(fontEnd + 1);
  const root = out.indexOf(ROOT_OPEN);
  const script = root < 0 ? -1 : out.indexOf(FIRST_SCRIPT, root);
  if (script >= 0) out = `${out.slice(0, root)}${ROOT_OPEN}Loading…</div>\n${out.slice(script)}`;
  out = out.replace('</head>', `${BACK_STYLE}</head>`).replace(ROOT_OPEN, `${BACK_LINK}\n${ROOT_OPEN}`);
  return out;
}

/** Sets the board's security headers on every answer and rewrites its page (`boardPageHtml`). */
export function boardPageHeaders(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const type = c.res.headers.get('content-type') ?? '';
    if (type.startsWith('text/html')) {
      const html = boardPageHtml(await c.res.text());
      c.res = new Response(html, { status: c.res.status, headers: c.res.headers });
    }
    c.res.headers.set('content-security-policy', BOARD_CSP);
    c.res.headers.set('x-content-type-options', 'nosniff');
    c.res.headers.set('referrer-policy', 'same-origin');
    c.res.headers.set('x-frame-options', 'DENY');
  };
}
