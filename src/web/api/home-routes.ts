import type { Hono } from 'hono';
import type { Ctx } from '../../context.ts';
import { DEFAULT_LANG, isLang } from '../../i18n/lang.ts';
import type { Runtime } from '../../runtime.ts';
import type { ApiRoutes } from '../app.ts';
import { homeFacts } from './home-facts.ts';

/**
 * `GET /api/home` (issue 33 item 1): what the panel's landing page shows — channels, the model's
 * last request, the doctor's findings (in `?lang=`, run at most once a minute), tickets by state,
 * failing deliveries and queue counts.
 */
export function homeRoutes(ctx: Ctx, rt: Pick<Runtime, 'models'>): ApiRoutes {
  return (api: Hono) => {
    api.get('/home', async (c) => {
      const asked = c.req.query('lang');
      const lang = isLang(asked) ? asked : DEFAULT_LANG;
      return c.json(await homeFacts(ctx, rt, lang));
    });
  };
}
