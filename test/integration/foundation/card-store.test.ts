import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildCard } from '../../../src/cards/build-card.ts';
import type { CardDraft } from '../../../src/cards/card.ts';
import { loadCard, replaceCard } from '../../../src/cards/card-store.ts';
import { createLogger } from '../../../src/logger.ts';
import { testRedis } from '../../kit/redis.ts';

const { redis, keys } = testRedis();

/** A context whose log lines land in `lines`, to see what a bad record reports. */
function ctxWithLog() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { ctx: { redis, keys: keys(), log: createLogger('info', {}, { destination }) }, lines };
}

const draft: CardDraft = {
  source: 'local',
  kind: 'message',
  eventId: 'e1',
  author: { id: 'ada', type: 'person' },
  origin: { source: 'local', chatId: 'try', messageId: 'm1' },
  conversation: 'local:try',
  request: true,
  refs: [],
  text: 'hello',
};

describe('issue 20: the card store validates what it reads', () => {
  it('a stored card reads back as written; an unknown one is undefined', async () => {
    const { ctx } = ctxWithLog();
    const { card } = buildCard(draft, 1_000);
    await replaceCard(ctx, card);
    expect(await loadCard(ctx, card.id)).toEqual(card);
    expect(await loadCard(ctx, 'nope')).toBeUndefined();
  });

  it('a stored card that fails its schema is logged and thrown as StoredRecordError, never cast', async () => {
    const { ctx, lines } = ctxWithLog();
    const { card } = buildCard(draft, 1_000);
    await redis.set(ctx.keys.card(card.id), JSON.stringify({ ...card, author: { id: 7 } }));
    await expect(loadCard(ctx, card.id)).rejects.toMatchObject({
      name: 'StoredRecordError',
      code: 'invalid_record',
      key: ctx.keys.card(card.id),
    });
    await redis.set(ctx.keys.card('garbled'), '{not json');
    await expect(loadCard(ctx, 'garbled')).rejects.toMatchObject({ code: 'invalid_record' });
    expect(lines.filter((l) => l.msg === 'stored record failed validation').map((l) => l.key)).toEqual([
      ctx.keys.card(card.id),
      ctx.keys.card('garbled'),
    ]);
  });
});
