import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logger.ts';
import { getPause, pauseTicket } from '../../../src/tickets/pause.ts';
import { testRedis } from '../../kit/redis.ts';

const { redis, keys } = testRedis();
const ctx = () => ({ redis, keys: keys(), log: createLogger('silent') });

describe('issue 20 / R-D2: a pause is read through its schema', () => {
  it('a pause reads back as written, with and without its card', async () => {
    const c = ctx();
    await pauseTicket(c, 'T1', { by: 'ada', at: 1, via: 'message', cardId: 'c1' });
    await pauseTicket(c, 'T2', { by: 'ada', at: 2, via: 'api' });
    expect(await getPause(c, 'T1')).toEqual({ by: 'ada', at: 1, via: 'message', cardId: 'c1' });
    expect(await getPause(c, 'T2')).toEqual({ by: 'ada', at: 2, via: 'api' });
    expect(await getPause(c, 'T3')).toBeUndefined();
  });

  it('a stored pause of another shape is reported as StoredRecordError, not cast', async () => {
    const c = ctx();
    await redis.set(c.keys.pause('T1'), JSON.stringify({ by: 'ada', at: 'noon', via: 'fax' }));
    await expect(getPause(c, 'T1')).rejects.toMatchObject({
      code: 'invalid_record',
      key: c.keys.pause('T1'),
    });
  });
});
