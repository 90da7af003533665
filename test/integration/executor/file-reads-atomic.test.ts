import { describe, expect, it } from 'vitest';
import { noteFileSeen, staleFile } from '../../../src/executor/files/file-reads.ts';
import { testRedis } from '../../kit/redis.ts';

const { redis, keys } = testRedis();
const TEXT = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n');

describe('issue 48 item 5: the lines a session saw, recorded in one step', () => {
  it('review: two pages of one file noted at once (parallel reads) both count, so the file is seen whole', async () => {
    const ctx = { redis, keys: keys() };
    await Promise.all([
      noteFileSeen(ctx, 's1', 'a.txt', TEXT, { from: 1, to: 10, total: 20 }),
      noteFileSeen(ctx, 's1', 'a.txt', TEXT, { from: 11, to: 20, total: 20 }),
    ]);
    expect(await staleFile(ctx, 's1', 'a.txt', TEXT)).toBeUndefined();
  });

  it('review: pages apart stay partly seen, with their ranges joined', async () => {
    const ctx = { redis, keys: keys() };
    await Promise.all([
      noteFileSeen(ctx, 's1', 'a.txt', TEXT, { from: 1, to: 5, total: 20 }),
      noteFileSeen(ctx, 's1', 'a.txt', TEXT, { from: 12, to: 20, total: 20 }),
      noteFileSeen(ctx, 's1', 'a.txt', TEXT, { from: 4, to: 8, total: 20 }),
    ]);
    expect(await staleFile(ctx, 's1', 'a.txt', TEXT)).toBe('partly');
    expect(await redis.hget(ctx.keys.sessionFileReads('s1'), 'a.txt')).toMatch(/^[0-9a-f]{32}\|1-8,12-20$/);
  });
});
