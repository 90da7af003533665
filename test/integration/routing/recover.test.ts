import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCard } from '../../../src/cards/ingest.ts';
import { routeCard } from '../../../src/router/route-card.ts';
import { pauseTicket } from '../../../src/tickets/pause.ts';
import { createTicket } from '../../../src/tickets/ticket-store.ts';
import { startTestApp, type TestApp, waitFor } from '../../kit/app.ts';
import { type FakeLlm, startFakeLlm } from '../../kit/fake-llm.ts';
import { ownedPrefixes } from '../../kit/redis.ts';
import { ackAll, openAll, roleOf, scriptedModel } from '../../kit/scripted-model.ts';
import { localMessage, openTicketIn, send } from './helpers.ts';

/** Prefixes handed to the product as its own; their keys go after the file. */
const ownPrefix = ownedPrefixes();

describe('work waiting at start-up (nothing lost)', () => {
  let llm: FakeLlm;
  const apps: TestApp[] = [];
  beforeEach(async () => {
    llm = await startFakeLlm();
    llm.respond(scriptedModel({ main: openAll, executor: ackAll }));
  });
  afterEach(async () => {
    await Promise.all(apps.map((a) => a.close()));
    await llm.close();
  });

  it('candidates left waiting by a process that died before queueing a main turn are routed when workers start', async () => {
    const env = { KEY_PREFIX: ownPrefix(), LLM_BASE_URL: llm.baseURL, LLM_API_KEY: 'k' };
    const web = await startTestApp(env, { workers: false });
    apps.push(web);
    // Issue 18: a ticket open in the chat makes the request a candidate (not opened by code).
    await openTicketIn(web.ctx);
    const card = await send(web.ctx, localMessage('please add a README badge'));
    expect(await routeCard(web.ctx, card)).toEqual({ kind: 'candidate' });
    // The process "died" after placing the card: no main-turn job survives.
    await web.ctx.queues.main.obliterate({ force: true });
    expect(await web.ctx.redis.zscore(web.ctx.keys.candidates(), card)).not.toBeNull();

    apps.push(await startTestApp(env));
    await waitFor(
      () => llm.requests.some((r) => roleOf(r) === 'executor' && JSON.stringify(r.messages).includes(card)),
      'the recovered request to reach an executor',
    );
  });
  it('a ticket whose inbox has cards but no queued turn gets its turn when workers start; a paused one does not', async () => {
    const env = { KEY_PREFIX: ownPrefix(), LLM_BASE_URL: llm.baseURL, LLM_API_KEY: 'k' };
    const web = await startTestApp(env, { workers: false });
    apps.push(web);
    const tickets: string[] = [];
    for (const text of ['please bump the lockfile', 'please rename the CLI flag']) {
      const card = (await loadCard(web.ctx, await send(web.ctx, localMessage(text))))!;
      tickets.push((await createTicket(web.ctx, card, { why: 'test' })).id);
    }
    const paused = tickets[1] as string;
    await pauseTicket(web.ctx, paused, { by: 'ada', at: Date.now(), via: 'api' });
    // The process "died" after attaching: no executor job survives.
    await web.ctx.queues.executor.obliterate({ force: true });
    // The cards were placed by hand here, not by routing: drop their routing jobs too.
    await web.ctx.queues.route.obliterate({ force: true });

    apps.push(await startTestApp(env));
    await waitFor(
      () =>
        llm.requests.some(
          (r) => roleOf(r) === 'executor' && JSON.stringify(r.messages).includes('bump the lockfile'),
        ),
      'the waiting ticket to get its turn',
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(
      llm.requests.some(
        (r) => JSON.stringify(r.messages).includes('rename the CLI flag') && roleOf(r) === 'executor',
      ),
    ).toBe(false);
    expect(await web.ctx.redis.llen(web.ctx.keys.ticketInbox(paused))).toBe(1);
  });
});
