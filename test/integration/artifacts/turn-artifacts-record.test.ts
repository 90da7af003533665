import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveTurnArtifacts } from '../../../src/artifacts/turn-artifacts.ts';
import { buildCard } from '../../../src/cards/build-card.ts';
import { projectTree } from '../../../src/executor/workspace/project-tree.ts';
import { createTicket } from '../../../src/tickets/ticket-store.ts';
import { type ArtifactWorld, startArtifactWorld } from './harness.ts';

async function openTicket(w: ArtifactWorld) {
  const { card } = buildCard(
    {
      source: 'local',
      kind: 'message',
      eventId: 'e1',
      author: { id: 'ada', type: 'person' },
      origin: { source: 'local', chatId: 'try', messageId: 'm1' },
      conversation: 'local:try',
      request: true,
      refs: [],
      text: 'fix the login page',
    },
    w.app.ctx.now(),
  );
  return createTicket(w.app.ctx, card, { why: 'asked' });
}

describe('issue 20 / R-G5: a turn’s artifact snapshot is read through its schema', () => {
  let w: ArtifactWorld;
  beforeEach(async () => {
    w = await startArtifactWorld({}, {}, { workers: false });
  });
  afterEach(() => w.close());

  it('a resumed turn reads back the snapshot it stored', async () => {
    const ticket = await openTicket(w);
    const first = await resolveTurnArtifacts(w.rt, ticket, 'turn-a', projectTree(w.rt.ctx, ticket.id));
    expect(await resolveTurnArtifacts(w.rt, ticket, 'turn-a', projectTree(w.rt.ctx, ticket.id))).toEqual(
      first,
    );
  });

  it('a stored snapshot of another shape is reported as StoredRecordError, not cast', async () => {
    const ticket = await openTicket(w);
    const key = w.app.ctx.keys.turnArtifacts('turn-b');
    await w.app.ctx.redis.set(key, JSON.stringify({ revision: 1, crew: { name: 'default' } }));
    await expect(
      resolveTurnArtifacts(w.rt, ticket, 'turn-b', projectTree(w.rt.ctx, ticket.id)),
    ).rejects.toMatchObject({
      code: 'invalid_record',
      key,
    });
  });
});
