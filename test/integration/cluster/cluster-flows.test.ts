import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPaused } from '../../../src/tickets/pause.ts';
import { waitFor } from '../../kit/app.ts';
import { type RecordedRequest, text, toolCalls } from '../../kit/fake-llm.ts';
import { freshPrefix } from '../../kit/redis.ts';
import { type LocalCluster, startRedisCluster } from '../../kit/redis-topologies.ts';
import { cardsIn, continues, openAll, roleOf } from '../../kit/scripted-model.ts';
import { startWorld, type World } from '../executor/harness.ts';
import { botMessages, localMessage, send, ticketOpenedBy } from '../routing/helpers.ts';

/**
 * Issue 19: the routing, executor and pause flows on a real three-node Redis Cluster on loopback
 * (`REDIS_URL=redis+cluster://…`, a hash-tagged `KEY_PREFIX`): every multi-key script, MULTI and
 * BullMQ queue of the bot works there.
 */
describe('on Redis Cluster (issue 19)', () => {
  let cluster: LocalCluster;
  let w: World;
  const prefix = `{${freshPrefix()}}`;
  beforeAll(async () => {
    cluster = await startRedisCluster(3);
    w = await startWorld({ REDIS_URL: cluster.url, KEY_PREFIX: prefix });
  }, 60_000);
  afterAll(async () => {
    await w?.close();
    await cluster?.stop();
  });
  const executorRequests = (only: (r: RecordedRequest) => boolean = () => true) =>
    w.llm.requests.filter((r) => roleOf(r) === 'executor' && only(r));

  it('issue 19: the store is a three-primary cluster, and the bot’s keys all share its prefix’s slot', async () => {
    expect(w.app.ctx.redis).toBeInstanceOf(Cluster);
    const redis = w.app.ctx.redis as Cluster;
    expect(redis.nodes('master')).toHaveLength(3);
    w.llm.respond((req) =>
      roleOf(req) === 'main'
        ? req.messages.at(-1)?.role === 'tool'
          ? text('Routed.')
          : openAll(req)
        : text('Later.'),
    );
    await send(w.app.ctx, localMessage('Please fix the footer', { chat: 'slots' }));
    const slot = Number(await redis.cluster('KEYSLOT', prefix));
    // Cards, their routing job and its BullMQ keys: every one in the prefix's slot.
    const stored = await waitFor(
      async () => Number(await redis.cluster('COUNTKEYSINSLOT', slot)) >= 3 && slot,
      'the card’s keys in the prefix’s slot',
    );
    expect(stored).toBe(slot);
  });

  it('issue 19 / R-B1 / R-C2 / R-D2: a request is routed, acknowledged and worked on; a pause holds it; a resume frees it', {
    timeout: 90_000,
  }, async () => {
    let acked = '';
    const mine = (req: RecordedRequest) =>
      JSON.stringify(req.messages).includes('Please make the header navy');
    w.llm.respond((req) => {
      if (roleOf(req) === 'main')
        return req.messages.at(-1)?.role === 'tool' ? text('Routed.') : openAll(req);
      if (continues(req)) return text('Done for now.');
      const card = cardsIn(req)[0] ?? '';
      // Only this test's ticket is scripted (the first test's ticket may still take turns).
      if (!mine(req)) return text('Not mine.');
      if (!acked) {
        acked = card;
        return toolCalls(
          ['reply', { to: card, text: 'On it: the header colour, on the cluster.' }],
          ['read_file', { path: 'web/style.css' }],
          ['edit_file', { path: 'web/style.css', old: 'color: black', new: 'color: navy' }],
        );
      }
      return toolCalls(['reply', { to: card, purpose: 'result', text: 'Seen your follow-up.' }]);
    });
    const request = await send(w.app.ctx, localMessage('Please make the header navy'));
    const ticket = await ticketOpenedBy(w.app.ctx, request);
    const ack = await waitFor(
      async () =>
        (await botMessages(w.app.ctx)).find((m) => m.text === 'On it: the header colour, on the cluster.'),
      'the acknowledgement',
      30_000,
    );
    await waitFor(() => executorRequests(mine).length >= 2, 'the edit’s result back to the model');
    expect(JSON.stringify(executorRequests(mine)[1]?.messages.at(-1))).toMatch(
      /edited web\/style\.css|web\/style\.css/,
    );
    expect(JSON.stringify(executorRequests(mine)[1]?.messages.at(-1))).not.toMatch(/Error/);

    await send(w.app.ctx, localMessage('/pause', { replyTo: ack.id }));
    await waitFor(() => isPaused(w.app.ctx, ticket), 'the pause');
    await waitFor(
      async () => (await botMessages(w.app.ctx)).find((m) => m.text.startsWith(`Paused ${ticket}`)),
      'the pause confirmation',
    );
    const before = executorRequests().length;
    await send(w.app.ctx, localMessage('also the footer, please', { replyTo: ack.id }));
    await new Promise((r) => setTimeout(r, 500));
    expect(executorRequests()).toHaveLength(before);

    await send(w.app.ctx, localMessage('/resume', { replyTo: ack.id }));
    await waitFor(() => executorRequests().length > before, 'the executor working again after the resume');
    expect(await isPaused(w.app.ctx, ticket)).toBe(false);
    await waitFor(
      async () => (await botMessages(w.app.ctx)).find((m) => m.text === 'Seen your follow-up.'),
      'the follow-up handled after the resume',
    );
  });
});
