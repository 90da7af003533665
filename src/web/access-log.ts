import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logger.ts';

/** The header that names a request's delivery, first found: GitHub's, then a proxy's request id. */
const DELIVERY_HEADERS = ['x-github-delivery', 'x-request-id'] as const;

/**
 * Issue 32: one access-log line per HTTP request, written when the answer is finished (or the
 * connection closed first): method, path (without its query, which may carry a token), status,
 * milliseconds and the delivery id when the request names one.
 */
export function logAccess(log: Logger, req: IncomingMessage, res: ServerResponse): void {
  const started = performance.now();
  let done = false;
  const write = () => {
    if (done) return;
    done = true;
    const method = req.method ?? '?';
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const status = res.writableFinished ? res.statusCode : 0;
    const ms = Math.round(performance.now() - started);
    const delivery = DELIVERY_HEADERS.map((h) => req.headers[h]).find((v) => typeof v === 'string');
    log.info(
      { access: { method, path, status, ms, ...(delivery ? { delivery } : {}) } },
      `${method} ${path} ${status || 'closed'} ${ms} ms${delivery ? ` delivery ${delivery}` : ''}`,
    );
  };
  res.once('finish', write);
  res.once('close', write);
}
