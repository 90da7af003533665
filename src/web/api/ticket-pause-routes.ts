import type { Hono } from 'hono';
import type { Ctx } from '../../context.ts';
import { HttpError } from '../../errors/http-error.ts';
import { resumeTicketAndWake } from '../../router/apply-command.ts';
import { statusChanged } from '../../status/status-hooks.ts';
import { getPause, pauseTicket } from '../../tickets/pause.ts';
import { getTicket } from '../../tickets/ticket-store.ts';
import type { ApiRoutes } from '../app.ts';
import { whoOf } from './request-meta.ts';
import { ticketIdGuard } from './ticket-id-guard.ts';

async function mustExist(ctx: Ctx, id: string): Promise<void> {
  if (!(await getTicket(ctx, id))) throw new HttpError(404, 'not_found', `no ticket ${id}`);
}

/**
 * `POST /api/tickets/:id/pause` and `/resume`: the same as a person's `/pause` or `/resume`
 * (R-D2). A pause holds until a person lifts it; a resume wakes the ticket when cards waited.
 * Both answer `{ id, paused, changed, pause }`; `changed` is false when it already was so.
 */
export function ticketPauseRoutes(ctx: Ctx): ApiRoutes {
  return (api: Hono) => {
    api.post('/tickets/:id/pause', ticketIdGuard, async (c) => {
      const id = c.req.param('id');
      await mustExist(ctx, id);
      const changed = await pauseTicket(ctx, id, { by: whoOf(c), at: ctx.now(), via: 'api' });
      if (changed) await statusChanged(ctx, id);
      ctx.log.info({ ticketId: id, by: whoOf(c), changed }, 'ticket paused via API');
      return c.json({ id, paused: true, changed, pause: (await getPause(ctx, id)) ?? null });
    });

    api.post('/tickets/:id/resume', ticketIdGuard, async (c) => {
      const id = c.req.param('id');
      await mustExist(ctx, id);
      const changed = await resumeTicketAndWake(ctx, id, { by: whoOf(c), at: ctx.now(), via: 'api' });
      if (changed) await statusChanged(ctx, id);
      ctx.log.info({ ticketId: id, by: whoOf(c), changed }, 'ticket resumed via API');
      return c.json({ id, paused: false, changed, pause: null });
    });
  };
}
