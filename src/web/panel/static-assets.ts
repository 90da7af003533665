import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context } from 'hono';

/** The panel's static files: hand-written HTML, CSS and JS modules, served as they are. */
export const ASSETS_DIR = fileURLToPath(new URL('./assets/', import.meta.url));

/**
 * Files the panel serves from installed packages, by their name under `assets/` (issue 17: the
 * charts' uPlot, from this origin only, so the policy stays `'self'`).
 */
const resolvePackage = createRequire(import.meta.url).resolve;
const VENDOR = new Map<string, () => string>([
  ['vendor/uPlot.esm.js', () => resolvePackage('uplot/dist/uPlot.esm.js')],
  ['vendor/uPlot.min.css', () => resolvePackage('uplot/dist/uPlot.min.css')],
]);

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  // The panel's word catalogs (issue 16), read by its script.
  '.md': 'text/markdown; charset=utf-8',
};

/**
 * Scripts and styles only from this origin, no inline script, no framing: even a bug that put
 * team text into markup could not run it.
 */
const securityHeaders = (formTargets: string[]): Record<string, string> => ({
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    `frame-ancestors 'none'; base-uri 'none'; form-action ${["'self'", ...formTargets].join(' ')}; object-src 'none'`,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
});

/**
 * Answers one file under `ASSETS_DIR` (or a `VENDOR` file); anything outside it or missing is a 404. `formTargets`
 * are origins besides this one that the page may post a form to (GitHub, for the App manifest).
 */
export async function serveAsset(
  c: Context,
  relative: string,
  formTargets: string[] = [],
): Promise<Response> {
  const vendor = VENDOR.get(relative);
  const path = vendor ? vendor() : normalize(join(ASSETS_DIR, relative));
  const type = TYPES[extname(path)];
  if ((!vendor && !path.startsWith(ASSETS_DIR)) || path.endsWith(sep) || !type) return c.notFound();
  let body: Buffer;
  try {
    body = await readFile(path);
  } catch {
    return c.notFound();
  }
  // The files change only with a release; revalidating each load keeps a tab from mixing versions,
  // and the tag makes that check a 304 with no body instead of the file again.
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
  const headers = { etag, 'cache-control': 'no-cache', ...securityHeaders(formTargets) };
  if (matchesTag(c.req.header('if-none-match'), etag)) return new Response(null, { status: 304, headers });
  return new Response(new Uint8Array(body), { headers: { 'content-type': type, ...headers } });
}

/** If-None-Match's weak comparison (RFC 9110 13.1.2): a listed tag, `W/` or not, or `*`. */
function matchesTag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag;
  });
}
