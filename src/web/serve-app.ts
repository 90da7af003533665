import { createServer, type RequestListener, type ServerOptions } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { fastWebhooks, webhookIntakes } from '../../handlers/fast-webhooks.ts';
import type { Ctx } from '../context.ts';
import { logAccess } from './access-log.ts';
import { type ApiRoutes, createApp } from './app.ts';

export interface ServeOptions {
  port: number;
  hostname: string;
}

/**
 * The product's HTTP server (CONTRACT "HTTP"): Hono's app behind a `node:http` listener that
 * answers the two webhook routes itself (issue 18: the fast path, `handlers/fast-webhooks.ts`),
 * both sharing one set of webhook intakes.
 */
export function serveApp(
  ctx: Ctx,
  apiRoutes: ApiRoutes[],
  opts: ServeOptions,
  onListening?: (info: AddressInfo) => void,
): ServerType {
  const intakes = webhookIntakes(ctx);
  const app = createApp(ctx, apiRoutes, intakes);
  const fast = fastWebhooks(ctx, intakes);
  return serve(
    {
      fetch: app.fetch,
      port: opts.port,
      hostname: opts.hostname,
      createServer: ((options: ServerOptions, listener: RequestListener) =>
        createServer(options, (req, res) => {
          logAccess(ctx.log, req, res);
          if (!fast(req, res)) listener(req, res);
        })) as typeof createServer,
    },
    onListening,
  );
}
