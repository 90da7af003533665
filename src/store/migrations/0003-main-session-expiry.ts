import { Cluster } from 'ioredis';
import type { Migration, MigrationCtx } from './migration.ts';

/** Sets a TTL on each key that has none (TTL -1); a key that expires already keeps its own. */
const EXPIRE_UNSET = `
for i = 1, #KEYS do
  if redis.call('TTL', KEYS[i]) == -1 then redis.call('EXPIRE', KEYS[i], ARGV[1]) end
end
return 1
`;

const BATCH = 500;
const DAY_S = 86_400;

/**
 * Every key starting with `start`, a page at a time (SCAN with MATCH, each primary of a Cluster),
 * as version 3 scanned: frozen here, so later changes to the store's scans cannot alter this step.
 */
async function* scan(redis: MigrationCtx['redis'], start: string): AsyncGenerator<string[]> {
  const match = `${start.replace(/[*?[\]\\]/g, '\\$&')}*`;
  const nodes = redis instanceof Cluster ? redis.nodes('master') : [redis];
  for (const node of nodes) {
    let cursor = '0';
    do {
      const [next, found] = await node.scan(cursor, 'MATCH', match, 'COUNT', 10_000);
      cursor = next;
      if (found.length) yield found;
    } while (cursor !== '0');
  }
}

/**
 * Version 3 (issue 31): a main turn's session (`session:main-…`: transcript, meta, revisions,
 * steps) expires `RETENTION_DAYS` after its last write, as the transcript store now sets. Sessions
 * written before never expired; this gives each key without a TTL `RETENTION_DAYS` from now.
 * Running it again changes nothing: keys that have a TTL keep it.
 */
export const mainSessionExpiry: Migration = {
  version: 3,
  name: 'main-session transcripts expire',
  async up(ctx) {
    // Main turns are numbered by `mainSeq`: a store that never had one has no session to find, and
    // a fresh store (every test's) skips the keyspace scan.
    if ((await ctx.redis.exists(ctx.keys.mainSeq())) === 0) return;
    const ttl = Math.ceil(ctx.config.RETENTION_DAYS * DAY_S);
    for await (const page of scan(ctx.redis, ctx.keys.session('main-'))) {
      for (let i = 0; i < page.length; i += BATCH) {
        const keys = page.slice(i, i + BATCH);
        await ctx.redis.eval(EXPIRE_UNSET, keys.length, ...keys, ttl);
      }
    }
  },
};
