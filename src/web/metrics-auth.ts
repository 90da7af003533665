import type { MiddlewareHandler } from 'hono';
import { HttpError } from '../errors/http-error.ts';
import { safeEqual } from './auth.ts';

/**
 * Guards `/metrics` with `METRICS_TOKEN` (issue 14): metrics name repositories, queues and error
 * rates, so they are not for anyone who finds the port. Without the token set, `/metrics` is off
 * (401 saying so); Prometheus sends it with `authorization: { credentials: … }`.
 */
export function requireMetricsToken(token: string | undefined): MiddlewareHandler {
  return async (c, next) => {
    if (!token) throw new HttpError(401, 'metrics_disabled', 'METRICS_TOKEN is not set on this deployment');
    const header = c.req.header('authorization') ?? '';
    const given = header.startsWith('Bearer ') ? header.slice(7) : '';
    if (!given || !safeEqual(given, token))
      throw new HttpError(401, 'unauthorized', 'missing or wrong bearer token');
    await next();
  };
}
