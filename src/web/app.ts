import { Hono } from 'hono';
import { type WebhookIntakes, webhookIntakes } from '../../handlers/fast-webhooks.ts';
import { feishuWebhook } from '../../handlers/feishu.ts';
import { githubWebhook } from '../../handlers/github.ts';
import type { Ctx } from '../context.ts';
import { isHttpError } from '../errors/http-error.ts';
import { healthRoutes } from './health-routes.ts';
import { requireMetricsToken } from './metrics-auth.ts';
import { requireAdminOrPanel } from './panel/panel-auth.ts';
import { panelRoutes } from './panel/panel-routes.ts';
import { queueMetrics } from './queue-metrics.ts';
import { registerStoreGauges } from './store-gauges.ts';
import { webhookSpan } from './webhook-span.ts';

/** Routes an API module adds under `/api` (behind the admin token). */
export type ApiRoutes = (api: Hono) => void;

/**
 * The HTTP surface (CONTRACT "HTTP"): webhooks, health, metrics and the admin API. Errors are
 * turned into responses here and only here — and, for the two webhook routes on a server made by
 * `serveApp`, in the fast path (`handlers/fast-webhooks.ts`), which shares their `intakes`.
 */
export function createApp(
  ctx: Ctx,
  apiRoutes: ApiRoutes[] = [],
  intakes: WebhookIntakes = webhookIntakes(ctx),
): Hono {
  const app = new Hono();

  app.onError((err, c) => {
    if (isHttpError(err)) {
      if (c.req.path.startsWith('/webhooks/')) {
        ctx.metrics.rejected.inc({ source: c.req.path.split('/')[2] ?? '?', status: String(err.status) });
      }
      return c.json({ error: err.message, code: err.code, ...err.extra }, err.status);
    }
    ctx.metrics.errors.inc({ where: 'http' });
    ctx.log.error({ err, path: c.req.path }, 'request failed');
    return c.json({ error: 'internal error', code: 'internal' }, 500);
  });

  healthRoutes(ctx)(app);
  registerStoreGauges(ctx);
  app.get('/metrics', requireMetricsToken(ctx.config.METRICS_TOKEN), async (c) => {
    c.header('content-type', ctx.metrics.registry.contentType);
    const [own, jobs] = await Promise.all([ctx.metrics.registry.metrics(), queueMetrics(ctx)]);
    return c.body(`${own}\n${jobs}`);
  });

  app.post('/webhooks/feishu', webhookSpan(), feishuWebhook(intakes.feishu));
  app.post('/webhooks/github', webhookSpan(), githubWebhook(intakes.github));

  panelRoutes(ctx)(app);

  const api = new Hono();
  api.use('*', requireAdminOrPanel(ctx));
  for (const add of apiRoutes) add(api);
  app.route('/api', api);

  return app;
}
