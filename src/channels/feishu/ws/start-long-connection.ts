import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Ctx } from '../../../context.ts';
import { createFeishuEventHandler } from '../handle-event.ts';
import { type HeldLease, holdLease } from './hold-lease.ts';
import { openLongConnection } from './long-connection.ts';

/**
 * Issue 16: Feishu events over the long connection when `feishuEventMode` is `ws` — one
 * connection per deployment: every web process competes for the lease (`hold-lease.ts`), the
 * holder opens the connection, the others take over when it dies. Undefined when Feishu is off or
 * its events come over HTTP.
 */
export function startFeishuLongConnection(ctx: Ctx): HeldLease | undefined {
  const { config } = ctx;
  if (!config.feishuEnabled || config.feishuEventMode !== 'ws') return undefined;
  const handle = createFeishuEventHandler(ctx);
  const holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  return holdLease(ctx, {
    holder,
    ttlMs: config.FEISHU_WS_LEASE_MS,
    start: () => openLongConnection(config, handle, ctx.log),
  });
}
