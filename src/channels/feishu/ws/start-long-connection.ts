import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Ctx } from '../../../context.ts';
import { createFeishuEventHandler } from '../handle-event.ts';
import { type HeldLease, holdLease } from './hold-lease.ts';
import { APP_ID_SHAPE, openLongConnection } from './long-connection.ts';

/**
 * Issue 16: Feishu events over the long connection when `feishuEventMode` is `ws` — one
 * connection per deployment: every web process competes for the lease (`hold-lease.ts`), the
 * holder opens the connection, the others take over when it dies. Undefined when Feishu is off or
 * its events come over HTTP.
 */
export function startFeishuLongConnection(ctx: Ctx): HeldLease | undefined {
  const { config } = ctx;
  if (!config.feishuEnabled || config.feishuEventMode !== 'ws') return undefined;
  if (!APP_ID_SHAPE.test(config.FEISHU_APP_ID ?? '')) {
    // Said once: competing for the lease would only repeat it.
    ctx.log.error(
      'feishu long connection off: FEISHU_APP_ID is not an app id (cli_ and 16 hex digits); no Feishu events will arrive',
    );
    return undefined;
  }
  const handle = createFeishuEventHandler(ctx);
  const holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  return holdLease(ctx, {
    holder,
    ttlMs: config.FEISHU_WS_LEASE_MS,
    start: () => openLongConnection(ctx, handle),
  });
}
