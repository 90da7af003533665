import type { Hono } from 'hono';
import type { Ctx } from '../../context.ts';
import { HttpError } from '../../errors/http-error.ts';
import { readDailyStats, STATS_RETENTION_DAYS } from '../../stats/daily-stats.ts';
import { currentDepth, readDepthSamples } from '../../stats/queue-depth.ts';
import type { ApiRoutes } from '../app.ts';

/** `?days=` as a whole number of days within what is kept; absent means 30. */
function daysOf(raw: string | undefined): number {
  if (raw === undefined) return 30;
  const n = Number(raw);
  if (!/^\d{1,3}$/.test(raw) || n < 1 || n > STATS_RETENTION_DAYS)
    throw new HttpError(400, 'bad_days', `days must be a whole number from 1 to ${STATS_RETENTION_DAYS}`);
  return n;
}

/**
 * The panel's charts (issue 17): `GET /api/stats/daily?days=30` (each UTC day's tokens by session
 * kind, tickets opened/done/blocked, time to acknowledgement, turn durations; oldest first) and
 * `GET /api/stats/queue-depth` (each queue's depth now and the last day's samples, one a minute).
 */
export function statsRoutes(ctx: Ctx): ApiRoutes {
  return (api: Hono) => {
    api.get('/stats/daily', async (c) => {
      const days = daysOf(c.req.query('days'));
      return c.json({ days: await readDailyStats(ctx, days) });
    });
    api.get('/stats/queue-depth', async (c) => {
      const [now, history] = await Promise.all([currentDepth(ctx), readDepthSamples(ctx)]);
      return c.json({ now, history });
    });
  };
}
