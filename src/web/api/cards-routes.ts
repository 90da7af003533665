import type { Hono } from 'hono';
import { cardFullText } from '../../cards/card-text.ts';
import type { Ctx } from '../../context.ts';
import { HttpError } from '../../errors/http-error.ts';
import type { ApiRoutes } from '../app.ts';

/**
 * `GET /api/cards/:id/text`: the whole text of a card (R-A3). A truncated card's resource pointer
 * names this route; its full text is kept at `keys.cardFull(id)`. Answers
 * `{ id, text, totalChars, truncated }`.
 */
export function cardsRoutes(ctx: Ctx): ApiRoutes {
  return (api: Hono) => {
    api.get('/cards/:id/text', async (c) => {
      const id = c.req.param('id');
      const whole = /^[\w-]{1,100}$/.test(id) ? await cardFullText(ctx, id) : undefined;
      if (!whole) throw new HttpError(404, 'not_found', `no card ${id}`);
      const { text, truncated } = whole;
      return c.json({ id, text, totalChars: text.length, truncated });
    });
  };
}
