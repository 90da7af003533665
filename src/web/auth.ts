import { timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { HttpError } from '../errors/http-error.ts';

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Guards `/api/*` with the admin bearer token. Without `ADMIN_TOKEN` configured every request is
 * refused (CONTRACT: "without it those answer 401"), never let through.
 */
export function requireAdmin(token: string | undefined): MiddlewareHandler {
  return async (c, next) => {
    const header = c.req.header('authorization') ?? '';
    const given = header.startsWith('Bearer ') ? header.slice(7) : '';
    if (!token) throw new HttpError(401, 'admin_disabled', 'ADMIN_TOKEN is not set on this deployment');
    if (!given || !safeEqual(given, token))
      throw new HttpError(401, 'unauthorized', 'missing or wrong bearer token');
    await next();
  };
}
