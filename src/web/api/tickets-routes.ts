import type { Hono } from 'hono';
import type { Ctx } from '../../context.ts';
import { HttpError } from '../../errors/http-error.ts';
import { screenshotImage } from '../../executor/screenshot/screenshot-images.ts';
import { isCommitId } from '../../executor/workspace/run-git.ts';
import { getStatus } from '../../status/get-status.ts';
import { renderStatusMarkdown } from '../../status/render-status-markdown.ts';
import { getTicket } from '../../tickets/ticket-store.ts';
import type { ApiRoutes } from '../app.ts';
import { needsYou } from './needs-you.ts';
import { withPeopleNames } from './people-names.ts';
import { NotOnBranch, ticketChanges } from './ticket-changes.ts';
import { ticketDetail } from './ticket-detail.ts';
import { ticketFilterOf } from './ticket-filter.ts';
import { ticketIdGuard } from './ticket-id-guard.ts';
import { filteredTickets, SCANNED } from './ticket-list.ts';
import { ticketTimeline } from './ticket-timeline.ts';
import { ticketTrajectory } from './ticket-trajectory.ts';

const MAX_LIMIT = SCANNED;

/**
 * `GET /api/tickets` (newest first, `?limit=` up to 500; issue 49 item 4: `?q=&state=&repo=&requester=
 * &pr=yes|no&waiting=answer|blocked|paused|budget`, a bad one a 400 naming it), `GET /api/tickets/:id`,
 * `GET /api/needs-you` (what a person must act on, `needs-you.ts`), `GET /api/tickets/:id/trajectory`
 * (issue 17: every step, in order), `…/timeline` and `…/changes` (issue 49: the merged timeline; the
 * branch's diff) and
 * `GET /api/tickets/:id/screenshots/:shot`: a screenshot the executor took, as a PNG (issue 15).
 */
export function ticketsRoutes(ctx: Ctx): ApiRoutes {
  return (api: Hono) => {
    api.get('/tickets', async (c) => {
      const filter = ticketFilterOf(c.req.query(), MAX_LIMIT);
      return c.json({ tickets: await filteredTickets(ctx, filter) });
    });

    api.get('/needs-you', async (c) => c.json(await needsYou(ctx)));

    api.get('/tickets/:id', ticketIdGuard, async (c) => {
      const id = c.req.param('id');
      const detail = await ticketDetail(ctx, id);
      if (!detail) throw new HttpError(404, 'not_found', `no ticket ${id}`);
      const named = await withPeopleNames(ctx, detail);
      const status = (await getStatus(ctx, id)) ?? null;
      // The same Markdown the GitHub comment and local chat show, so the panel matches the card.
      const statusText = status ? renderStatusMarkdown(status) : null;
      return c.json({ ...named, status, statusText });
    });

    api.get('/tickets/:id/trajectory', ticketIdGuard, async (c) => {
      const id = c.req.param('id');
      const ticket = await getTicket(ctx, id);
      if (!ticket) throw new HttpError(404, 'not_found', `no ticket ${id}`);
      return c.json({ id, state: ticket.state, steps: await ticketTrajectory(ctx, id) });
    });

    // Issue 49 item 1: people's and the bot's messages, agent steps per turn, commits, the PR and
    // reports, merged by time.
    api.get('/tickets/:id/timeline', ticketIdGuard, async (c) => {
      const id = c.req.param('id');
      const ticket = await getTicket(ctx, id);
      if (!ticket) throw new HttpError(404, 'not_found', `no ticket ${id}`);
      return c.json({ id, state: ticket.state, items: await ticketTimeline(ctx, id) });
    });

    // Issue 49 item 2: the branch's commits and diff against its base, from the host's mirror;
    // `?commit=<sha>`: one of its commits against its parent.
    api.get('/tickets/:id/changes', ticketIdGuard, async (c) => {
      const id = c.req.param('id');
      const ticket = await getTicket(ctx, id);
      if (!ticket) throw new HttpError(404, 'not_found', `no ticket ${id}`);
      const commit = c.req.query('commit');
      if (commit !== undefined && !isCommitId(commit))
        throw new HttpError(400, 'bad_commit', 'commit must be a whole commit id (40 lower-case hex digits)');
      try {
        return c.json(await ticketChanges(ctx, id, commit));
      } catch (err) {
        if (err instanceof NotOnBranch) throw new HttpError(404, 'not_found', err.message);
        throw err;
      }
    });

    api.get('/tickets/:id/screenshots/:shot', ticketIdGuard, async (c) => {
      const png = await screenshotImage(ctx, c.req.param('id'), c.req.param('shot'));
      if (!png) throw new HttpError(404, 'not_found', 'no such screenshot');
      return c.body(new Uint8Array(png), 200, {
        'content-type': 'image/png',
        // The picture is the page of a checkout: never run anything it might be taken for.
        'x-content-type-options': 'nosniff',
        'cache-control': 'private, max-age=3600',
      });
    });
  };
}
