import { retentionSeconds } from '../../cards/growth-bounds.ts';
import { runScript, script } from '../run-script.ts';
import { scanKeys } from '../scan-keys.ts';
import type { Migration } from './migration.ts';

/** Sets a TTL on each key that has none (TTL -1); a key that expires already keeps its own. */
const EXPIRE_UNSET = script(`
for i = 1, #KEYS do
  if redis.call('TTL', KEYS[i]) == -1 then redis.call('EXPIRE', KEYS[i], ARGV[1]) end
end
return 1
`);

const BATCH = 500;

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
    const ttl = retentionSeconds(ctx.config);
    for await (const page of scanKeys(ctx.redis, ctx.keys.session('main-'), 10_000)) {
      for (let i = 0; i < page.length; i += BATCH)
        await runScript(ctx.redis, EXPIRE_UNSET, page.slice(i, i + BATCH), [ttl]);
    }
  },
};
