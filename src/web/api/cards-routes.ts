import type { Hono } from 'hono';
import { loadCard } from '../../cards/ingest.ts';
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
      const card = /^[\w-]{1,100}$/.test(id) ? await loadCard(ctx, id) : undefined;
      if (!card) throw new HttpError(404, 'not_found', `no card ${id}`);
      const full = card.truncated ? await ctx.redis.get(ctx.keys.cardFull(id)) : null;
      const text = full ?? card.text;
      return c.json({ id, text, totalChars: text.length, truncated: Boolean(card.truncated) });
    });
  };
}
