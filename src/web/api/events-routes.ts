import type { Hono } from 'hono';
import { CardSource } from '../../cards/card.ts';
import { EventFateSchema, type EventFilter } from '../../cards/event-fate.ts';
import { parseCursor, readEvents } from '../../cards/event-log.ts';
import type { Ctx } from '../../context.ts';
import { HttpError } from '../../errors/http-error.ts';
import type { ApiRoutes } from '../app.ts';

const PAGE = 50;

/** A free-text filter: trimmed, bounded; empty means none. */
function textOf(raw: string | undefined, name: string): string | undefined {
  const v = raw?.trim();
  if (!v) return undefined;
  if (v.length > 200) throw new HttpError(400, 'bad_filter', `${name}: at most 200 characters`);
  return v;
}

function filterOf(q: (name: string) => string | undefined): EventFilter {
  const channel = textOf(q('channel'), 'channel');
  if (channel && !CardSource.safeParse(channel).success)
    throw new HttpError(400, 'bad_filter', `channel: one of ${CardSource.options.join(', ')}`);
  const fate = textOf(q('fate'), 'fate');
  const parsedFate = fate === undefined ? undefined : EventFateSchema.safeParse(fate);
  if (parsedFate && !parsedFate.success)
    throw new HttpError(400, 'bad_filter', `fate: one of ${EventFateSchema.options.join(', ')}`);
  return {
    channel,
    fate: parsedFate?.data,
    repo: textOf(q('repo'), 'repo'),
    chat: textOf(q('chat'), 'chat'),
    person: textOf(q('person'), 'person'),
  };
}

/**
 * `GET /api/events?channel=&repo=&chat=&person=&fate=&cursor=` (issue 33 item 2): the events
 * inbox, newest first, 50 a page — every incoming event and card with its fate, its tickets and
 * why. `next` is the cursor of the following (older) page. Unknown channel or fate, or a cursor
 * that is no page's `next`, is a 400.
 */
export function eventsRoutes(ctx: Ctx): ApiRoutes {
  return (api: Hono) => {
    api.get('/events', async (c) => {
      const filter = filterOf((name) => c.req.query(name));
      const cursor = textOf(c.req.query('cursor'), 'cursor');
      // A cursor that is not a page's `next` would silently give the first page again.
      if (cursor !== undefined && !parseCursor(cursor))
        throw new HttpError(400, 'bad_cursor', 'cursor: the next of an earlier page, as it was given');
      return c.json(await readEvents(ctx, filter, cursor, PAGE));
    });
  };
}
