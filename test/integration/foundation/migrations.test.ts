import { afterAll, describe, expect, it } from 'vitest';
import type { CardDraft } from '../../../src/cards/card.ts';
import { ingest, loadCard } from '../../../src/cards/ingest.ts';
import { loadConfig } from '../../../src/config.ts';
import type { Ctx } from '../../../src/context.ts';
import { createLogger } from '../../../src/logger.ts';
import { MIGRATIONS } from '../../../src/store/migrations/index.ts';
import { migrateStore } from '../../../src/store/migrations/migrate-store.ts';
import type { Migration, MigrationCtx } from '../../../src/store/migrations/migration.ts';
import { getPause, pauseTicket } from '../../../src/tickets/pause.ts';
import { createTicket, getTicket } from '../../../src/tickets/ticket-store.ts';
import { startTestApp } from '../../kit/app.ts';
import { ownedPrefixes, testRedis } from '../../kit/redis.ts';

/** Prefixes handed to the product as its own; their keys go after the file. */
const ownPrefix = ownedPrefixes();

const { redis, keys } = testRedis();
const log = createLogger('silent');
const migrationCtx = (): MigrationCtx => ({
  redis,
  keys: keys(),
  config: loadConfig({}),
  log,
  now: () => Date.now(),
});

/** Steps that record each run in a list, so a test sees what ran, how often and in what order. */
function recordingSteps(n: number, opts: { failOnce?: number; slowMs?: number } = {}): Migration[] {
  let failed = false;
  return Array.from({ length: n }, (_, i) => ({
    version: i + 1,
    name: `step ${i + 1}`,
    async up(ctx) {
      if (opts.slowMs) await new Promise((r) => setTimeout(r, opts.slowMs));
      if (opts.failOnce === i + 1 && !failed) {
        failed = true;
        throw new Error('boom');
      }
      await ctx.redis.rpush(`${ctx.keys.prefix}:ran`, String(i + 1));
    },
  }));
}

const draft: CardDraft = {
  source: 'local',
  kind: 'message',
  eventId: 'e-migrate',
  author: { id: 'ada', type: 'person' },
  origin: { source: 'local', chatId: 'try', messageId: 'm-migrate' },
  conversation: 'local:try',
  request: true,
  refs: [],
  text: 'please fix the login bug',
};

describe('issue 20: the stored data carries a schema version; start-up migrates it forward', () => {
  const apps: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const a of apps) await a.close();
  });

  it('data written in today’s shape (no version key) is stamped at start-up and reads back the same', async () => {
    const prefix = ownPrefix();
    const first = await startTestApp({ KEY_PREFIX: prefix }, { workers: false });
    apps.push(first);
    const written = await ingest(first.ctx, draft);
    if (written.kind !== 'new') throw new Error('expected a new card');
    const ticket = await createTicket(first.ctx, written.card, { why: 'a request' });
    await pauseTicket(first.ctx, ticket.id, { by: 'ada', at: 1, via: 'api' });
    // The store as today's release left it: no version key at all.
    await first.ctx.redis.del(first.ctx.keys.schemaVersion());
    await first.close();
    apps.pop();

    const second = await startTestApp({ KEY_PREFIX: prefix }, { workers: false });
    apps.push(second);
    const ctx: Ctx = second.ctx;
    expect(await ctx.redis.get(ctx.keys.schemaVersion())).toBe(String(MIGRATIONS.at(-1)?.version));
    expect(await loadCard(ctx, written.card.id)).toEqual(written.card);
    expect(await getTicket(ctx, ticket.id)).toEqual(ticket);
    expect(await getPause(ctx, ticket.id)).toEqual({ by: 'ada', at: 1, via: 'api' });
  });

  it('processes starting at once run each step exactly once, in order, and all see the same version', async () => {
    const ctx = migrationCtx();
    const steps = recordingSteps(3, { slowMs: 50 });
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, () => migrateStore(ctx, steps, { lockMs: 2_000, pollMs: 10 })),
    );
    expect(await redis.lrange(`${ctx.keys.prefix}:ran`, 0, -1)).toEqual(['1', '2', '3']);
    expect(outcomes.map((o) => o.to)).toEqual([3, 3, 3, 3, 3]);
    expect(outcomes.flatMap((o) => o.applied).sort()).toEqual([1, 2, 3]);
  });

  it('a step that fails keeps the version at the last finished step; the next start resumes there', async () => {
    const ctx = migrationCtx();
    const steps = recordingSteps(3, { failOnce: 2 });
    await expect(migrateStore(ctx, steps)).rejects.toThrow('boom');
    expect(await redis.get(ctx.keys.schemaVersion())).toBe('1');
    // The lock was released: the next start does not wait for it.
    expect(await redis.exists(ctx.keys.schemaLock())).toBe(0);
    expect(await migrateStore(ctx, steps, { waitMs: 0 })).toEqual({ from: 1, to: 3, applied: [2, 3] });
    expect(await redis.lrange(`${ctx.keys.prefix}:ran`, 0, -1)).toEqual(['1', '2', '3']);
  });

  it('a store at the current version runs nothing', async () => {
    const ctx = migrationCtx();
    await redis.set(ctx.keys.schemaVersion(), '2');
    expect(await migrateStore(ctx, recordingSteps(2))).toEqual({ from: 2, to: 2, applied: [] });
    expect(await redis.exists(`${ctx.keys.prefix}:ran`)).toBe(0);
  });

  it('a store newer than this release, or with a garbled version, is refused with a typed error', async () => {
    const ctx = migrationCtx();
    await redis.set(ctx.keys.schemaVersion(), '9');
    await expect(migrateStore(ctx, recordingSteps(2))).rejects.toMatchObject({
      name: 'StoreSchemaError',
      code: 'store_too_new',
    });
    await redis.set(ctx.keys.schemaVersion(), 'two');
    await expect(migrateStore(ctx, recordingSteps(2))).rejects.toMatchObject({ code: 'bad_version' });
    expect(await redis.exists(`${ctx.keys.prefix}:ran`)).toBe(0);
  });

  it('a process waits for another’s migration only so long, then gives up with a typed error', async () => {
    const ctx = migrationCtx();
    await redis.set(ctx.keys.schemaLock(), 'someone-else', 'PX', 10_000);
    await expect(migrateStore(ctx, recordingSteps(1), { waitMs: 100, pollMs: 10 })).rejects.toMatchObject({
      code: 'migration_timeout',
    });
    expect(await redis.exists(`${ctx.keys.prefix}:ran`)).toBe(0);
  });

  it('a step that outlives its lock does not stamp the version', async () => {
    const ctx = migrationCtx();
    const steps: Migration[] = [
      {
        version: 1,
        name: 'loses its lock',
        async up(c) {
          await c.redis.set(c.keys.schemaLock(), 'taken-over');
        },
      },
    ];
    await expect(migrateStore(ctx, steps)).rejects.toMatchObject({ code: 'migration_lock_lost' });
    expect(await redis.exists(ctx.keys.schemaVersion())).toBe(0);
    // The other holder's lock is left alone.
    expect(await redis.get(ctx.keys.schemaLock())).toBe('taken-over');
  });
});
