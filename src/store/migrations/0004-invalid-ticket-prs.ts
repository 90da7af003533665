import type { Migration } from './migration.ts';

const BATCH = 500;

/**
 * Whether a stored PR record has the shape version 4 required (`repo`, `number`, `nodeId`, `url`):
 * frozen here, so a later change to the live schema cannot alter what this step drops.
 */
function validPr(raw: string): boolean {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return false;
  }
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  return (
    typeof r.repo === 'string' &&
    typeof r.number === 'number' &&
    typeof r.nodeId === 'string' &&
    typeof r.url === 'string'
  );
}

/**
 * Version 4 (issue 31): a ticket's PR record is now checked when written, but releases before
 * stored GitHub's answer as it came — one without `node_id` made every read of its ticket fail
 * (`GET /api/tickets/:id` a 500). Such a record is dropped (logged); the next `open_pr` finds the
 * PR open on the branch and records it again, checked. Valid records stay; running it again
 * changes nothing.
 */
export const invalidTicketPrs: Migration = {
  version: 4,
  name: 'drop ticket PR records that fail their schema',
  async up(ctx) {
    const ids = await ctx.redis.zrange(ctx.keys.tickets(), 0, -1);
    for (let i = 0; i < ids.length; i += BATCH) {
      const keys = ids.slice(i, i + BATCH).map((id) => ctx.keys.ticketPr(id));
      const values = await ctx.redis.mget(...keys);
      const bad = keys.filter((_, j) => {
        const raw = values[j];
        return typeof raw === 'string' && !validPr(raw);
      });
      for (const key of bad) ctx.log.error({ key }, 'stored record failed validation');
      if (bad.length) await ctx.redis.del(...bad);
    }
  },
};
