import type { Migration } from './migration.ts';

const PAGE = 500;

/** A conversation's index key as version 2 wrote it (frozen here: later changes to refs must not alter this step). */
const conversationRefKey = (conversation: string): string => `conv:${conversation}`;

/**
 * Version 2 (issue 18): every ticket is indexed under its conversation (`conv:<conversation>` in
 * the reference index, both sides), so routing can tell that no ticket could be meant by an
 * unreferenced request there. Tickets made before had no such entry; this adds it. SADD only:
 * running it again changes nothing.
 */
export const conversationIndex: Migration = {
  version: 2,
  name: 'index each ticket under its conversation',
  async up(ctx) {
    for (let start = 0; ; start += PAGE) {
      const ids = await ctx.redis.zrange(ctx.keys.tickets(), start, start + PAGE - 1);
      if (!ids.length) return;
      const read = ctx.redis.multi();
      for (const id of ids) read.hget(ctx.keys.ticket(id), 'conversation');
      const rows = (await read.exec()) ?? [];
      const write = ctx.redis.multi();
      ids.forEach((id, i) => {
        const raw = rows[i]?.[1];
        if (typeof raw !== 'string') return;
        const key = conversationRefKey(JSON.parse(raw) as string);
        write.sadd(ctx.keys.refIndex(key), id).sadd(ctx.keys.ticketRefs(id), key);
      });
      await write.exec();
      if (ids.length < PAGE) return;
    }
  },
};
