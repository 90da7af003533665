import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { ticketPr } from '../../../src/executor/workspace/delivery-records.ts';
import { createLogger } from '../../../src/logger.ts';
import { createKeys } from '../../../src/store/keys.ts';
import { invalidTicketPrs } from '../../../src/store/migrations/0004-invalid-ticket-prs.ts';
import { MIGRATIONS } from '../../../src/store/migrations/index.ts';
import { ownedPrefixes, testRedis } from '../../kit/redis.ts';

const ownPrefix = ownedPrefixes();
const { redis } = testRedis();

describe('issue 31: migration 4 drops ticket PR records stored from an incomplete GitHub answer', () => {
  it('a PR record without nodeId (or not JSON) is dropped so its ticket reads again; valid ones stay; running it again changes nothing', async () => {
    const keys = createKeys(ownPrefix());
    const ctx = { redis, keys, config: loadConfig({}), log: createLogger('silent'), now: () => Date.now() };
    const valid = { repo: 'acme/app', number: 8, nodeId: 'PR_8', url: 'https://github.com/acme/app/pull/8' };
    await redis.zadd(keys.tickets(), 1, 'T1', 2, 'T2', 3, 'T3', 4, 'T4');
    // As releases before issue 31 stored GitHub's answer: no node_id, so no nodeId.
    await redis.set(keys.ticketPr('T1'), JSON.stringify({ repo: 'acme/app', number: 7, url: 'u' }));
    await redis.set(keys.ticketPr('T2'), JSON.stringify(valid));
    await redis.set(keys.ticketPr('T3'), '{"repo":');
    await expect(ticketPr(ctx, 'T1')).rejects.toMatchObject({ code: 'invalid_record' });

    expect(MIGRATIONS).toContain(invalidTicketPrs);
    await invalidTicketPrs.up(ctx);
    expect(await ticketPr(ctx, 'T1')).toBeUndefined();
    expect(await ticketPr(ctx, 'T3')).toBeUndefined();
    expect(await ticketPr(ctx, 'T2')).toEqual(valid);
    await invalidTicketPrs.up(ctx);
    expect(await ticketPr(ctx, 'T2')).toEqual(valid);
  });
});
