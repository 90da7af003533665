import { Hono } from 'hono';
import type { Ctx } from '../context.ts';
import { storeAnswers } from '../store/redis.ts';

/** CONTRACT "HTTP": `/healthz` while the process runs, `/readyz` while Redis answers. */
export function healthRoutes(ctx: Ctx): (app: Hono) => void {
  return (app) => {
    app.get('/healthz', (c) => c.json({ ok: true }));
    app.get('/readyz', async (c) =>
      (await storeAnswers(ctx))
        ? c.json({ ok: true })
        : c.json({ ok: false, error: 'redis does not answer' }, 503),
    );
  };
}

/**
 * Issue 16: a `ROLE=worker` process serves these two routes and nothing else on `PORT`, so one
 * container health check fits every role. No webhook, panel, metrics or API route is reachable.
 */
export function createHealthApp(ctx: Ctx): Hono {
  const app = new Hono();
  healthRoutes(ctx)(app);
  return app;
}
