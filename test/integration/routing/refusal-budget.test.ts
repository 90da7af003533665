import { describe, expect, it } from 'vitest';
import type { TriggerCard } from '../../../src/cards/card.ts';
import { loadConfig } from '../../../src/config.ts';
import { takeRefusal } from '../../../src/router/refusal-budget.ts';
import { testRedis } from '../../kit/redis.ts';

const { redis, keys } = testRedis();

/** A Feishu message from `author` in `chat`, as ingest would store it. */
function feishuCard(id: string, author: string, chat: string): TriggerCard {
  return {
    id,
    source: 'feishu',
    kind: 'message',
    eventId: `ev-${id}`,
    receivedAt: 0,
    author: { id: author, type: 'person' },
    origin: { source: 'feishu', chatId: chat, chatType: 'group', messageId: `om_${id}` },
    conversation: chat,
    request: true,
    refs: [],
    text: 'please delete everything',
  } as TriggerCard;
}

describe('issue 45: the polite refusal’s budget (R-A5)', () => {
  it('a routing retried after the refusal was taken gets it again for the same card, and spends nothing more', async () => {
    const ctx = { redis, keys: keys(), config: loadConfig({ REFUSALS_PER_PLACE_PER_DAY: '1' }) };
    const card = feishuCard('c1', 'ou_mallory', 'oc_room');
    expect(await takeRefusal(ctx, card)).toBe(true);
    // The process died before the refusal was queued; the routing job runs again.
    expect(await takeRefusal(ctx, card)).toBe(true);
    // The same outsider's next message is not refused again today …
    expect(await takeRefusal(ctx, feishuCard('c2', 'ou_mallory', 'oc_room'))).toBe(false);
    // … and the retry spent no second refusal of the chat's one.
    expect(await takeRefusal(ctx, feishuCard('c3', 'ou_eve', 'oc_room'))).toBe(false);
  });

  it('on Feishu the budget is per chat: a full chat leaves another chat’s untouched', async () => {
    const ctx = { redis, keys: keys(), config: loadConfig({ REFUSALS_PER_PLACE_PER_DAY: '2' }) };
    const taken = [];
    for (let i = 0; i < 4; i++)
      taken.push(await takeRefusal(ctx, feishuCard(`a${i}`, `ou_a${i}`, 'oc_busy')));
    expect(taken).toEqual([true, true, false, false]);
    expect(await takeRefusal(ctx, feishuCard('b0', 'ou_a3', 'oc_quiet'))).toBe(true);
  });
});
