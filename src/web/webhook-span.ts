import { ROOT_CONTEXT, SpanKind } from '@opentelemetry/api';
import type { MiddlewareHandler } from 'hono';
import { inSpan } from '../tracing/in-span.ts';

/**
 * The root span of a webhook's trace (issue 17): `POST /webhooks/<source>` with the method, the
 * route and the answer's status. A sender's own `traceparent` is outside text and never adopted:
 * every delivery starts a trace of its own.
 */
export function webhookSpan(): MiddlewareHandler {
  return (c, next) => {
    const route = c.req.routePath;
    const attributes = { 'http.request.method': c.req.method, 'http.route': route };
    return inSpan(
      `${c.req.method} ${route}`,
      attributes,
      async (span) => {
        await next();
        span.setAttribute('http.response.status_code', c.res.status);
      },
      { kind: SpanKind.SERVER, parent: ROOT_CONTEXT },
    );
  };
}
