import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { createLogger } from '../../../src/logger.ts';
import { createKeys } from '../../../src/store/keys.ts';
import { conversationIndex } from '../../../src/store/migrations/0002-conversation-index.ts';
import { MIGRATIONS } from '../../../src/store/migrations/index.ts';
import { conversationRefKey } from '../../../src/tickets/ref-key.ts';
import { openTicketsIn } from '../../../src/tickets/ticket-store.ts';
import { ownedPrefixes, testRedis } from '../../kit/redis.ts';

/** Prefixes handed to the product as its own; their keys go after the file. */
const ownPrefix = ownedPrefixes();

const { redis } = testRedis();

/** A ticket as the release before issue 18 wrote it: no conversation entry in the index. */
async function oldTicket(prefix: string, id: string, conversation: string, state = 'open'): Promise<void> {
  const fields = { id, state, conversation, openedBy: `c-${id}` };
  await redis.hset(
    `${prefix}:ticket:${id}`,
    Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, JSON.stringify(v)])),
  );
  await redis.zadd(`${prefix}:tickets`, Date.now(), id);
}

describe('issue 18: migration 2 indexes every ticket under its conversation', () => {
  it('tickets written before it are found in their conversation afterwards; running it again changes nothing', async () => {
    const prefix = ownPrefix();
    const keys = createKeys(prefix);
    const ctx = { redis, keys, config: loadConfig({}), log: createLogger('silent'), now: () => Date.now() };
    await oldTicket(prefix, 'T1', 'local:room');
    await oldTicket(prefix, 'T2', 'acme/widgets#5');
    await oldTicket(prefix, 'T3', 'local:room', 'done');
    expect(await openTicketsIn(ctx, 'local:room')).toEqual([]);

    expect(MIGRATIONS.map((m) => m.version)).toContain(conversationIndex.version);
    await conversationIndex.up(ctx);
    await conversationIndex.up(ctx);
    expect(await openTicketsIn(ctx, 'local:room')).toEqual(['T1']);
    expect(await openTicketsIn(ctx, 'acme/widgets#5')).toEqual(['T2']);
    expect((await redis.smembers(keys.refIndex(conversationRefKey('local:room')))).sort()).toEqual([
      'T1',
      'T3',
    ]);
    expect(await redis.smembers(keys.ticketRefs('T1'))).toEqual([conversationRefKey('local:room')]);
    await redis.hset(keys.ticket('T1'), 'state', JSON.stringify('cancelled'));
    expect(await openTicketsIn(ctx, 'local:room')).toEqual([]);
  });
});
