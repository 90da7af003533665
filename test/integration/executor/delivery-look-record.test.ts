import { describe, expect, it } from 'vitest';
import { looksAt } from '../../../src/executor/delivery-look/look-record.ts';
import { testRedis } from '../../kit/redis.ts';

const { redis, keys } = testRedis();

describe('issue 48: the look before delivery is stored per ticket and head', () => {
  it('issue 48: the first call at a head looks, and so does that same call resumed after a crash; a later call goes on; a new head looks again', async () => {
    const ctx = { redis, keys: keys() };
    expect(await looksAt(ctx, 'T1', 'aaa', 'call-1')).toBe(true);
    // A turn resumed after a crash runs the same call again: its model never read the look.
    expect(await looksAt(ctx, 'T1', 'aaa', 'call-1')).toBe(true);
    expect(await looksAt(ctx, 'T1', 'aaa', 'call-2')).toBe(false);
    expect(await looksAt(ctx, 'T1', 'aaa', 'call-3')).toBe(false);
    expect(await looksAt(ctx, 'T1', 'bbb', 'call-4')).toBe(true);
    expect(await looksAt(ctx, 'T2', 'aaa', 'call-5')).toBe(true);
  });
});
