import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CardDraft } from '../../../src/cards/card.ts';
import { isPaused } from '../../../src/tickets/pause.ts';
import { addTicketRefs } from '../../../src/tickets/ticket-store.ts';
import { startTestApp, type TestApp, waitFor } from '../../kit/app.ts';
import { type FakeLlm, startFakeLlm } from '../../kit/fake-llm.ts';
import { ownedPrefixes } from '../../kit/redis.ts';
import { ackAll, openAll, roleOf, scriptedModel } from '../../kit/scripted-model.ts';
import { botMessages, localMessage, send, ticketOpenedBy } from './helpers.ts';

/** Prefixes handed to the product as its own; their keys go after the file. */
const ownPrefix = ownedPrefixes();

const ciFailure = (n: number): CardDraft => ({
  source: 'github',
  kind: 'check',
  eventId: `check-${n}-${Date.now()}`,
  action: 'completed',
  author: { id: 'github-actions[bot]', type: 'bot' },
  origin: { source: 'github', repo: 'acme/web', number: 7, isPullRequest: true },
  conversation: 'acme/web#7',
  request: false,
  refs: [{ type: 'pr', repo: 'acme/web', number: 7 }],
  text: 'CI failed: 3 tests failing',
  facts: { conclusion: 'failure', name: 'ci' },
});

describe('pauses last (R-D2)', () => {
  let llm: FakeLlm;
  let app: TestApp;
  let prefix: string;
  const env = () => ({ KEY_PREFIX: prefix, LLM_BASE_URL: llm.baseURL, LLM_API_KEY: 'test-key' });
  beforeEach(async () => {
    // One prefix per test (issue 20), kept across the restart inside it.
    prefix = ownPrefix();
    llm = await startFakeLlm();
    llm.respond(scriptedModel({ main: openAll, executor: ackAll }));
    app = await startTestApp(env());
  });
  afterEach(async () => {
    await app.close();
    await llm.close();
  });
  const executorRequests = () => llm.requests.filter((r) => roleOf(r) === 'executor').length;
  const settle = () => new Promise((r) => setTimeout(r, 400));

  it('R-D2: a pause holds through follow-ups, a restart, CI results and bot comments until a person resumes', async () => {
    const request = await send(app.ctx, localMessage('Please bump the Node version in CI'));
    const ack = await waitFor(
      async () => (await botMessages(app.ctx)).find((m) => m.text.includes(request)),
      'the acknowledgement',
    );
    const ticket = await ticketOpenedBy(app.ctx, request);
    await addTicketRefs(app.ctx, ticket, ['gh:acme/web#7']);

    await send(app.ctx, localMessage('/pause', { replyTo: ack.id }));
    await waitFor(
      async () => (await botMessages(app.ctx)).find((m) => m.text.startsWith(`Paused ${ticket}`)),
      'the pause confirmation',
    );
    expect(await isPaused(app.ctx, ticket)).toBe(true);

    const before = executorRequests();
    const followUp = await send(app.ctx, localMessage('also update the lockfile', { replyTo: ack.id }));
    await settle();
    expect(executorRequests()).toBe(before);
    expect(await app.ctx.redis.lrange(app.ctx.keys.ticketInbox(ticket), 0, -1)).toContain(followUp);

    // Kill and restart: a new process on the same Redis.
    await app.close();
    app = await startTestApp(env());
    expect(await isPaused(app.ctx, ticket)).toBe(true);

    await send(app.ctx, ciFailure(1));
    await send(app.ctx, {
      ...localMessage('/resume', { replyTo: ack.id }),
      author: { id: 'ci-bot', type: 'bot' },
    });
    await settle();
    expect(await isPaused(app.ctx, ticket)).toBe(true);
    expect(executorRequests()).toBe(before);

    await send(app.ctx, localMessage('/resume', { replyTo: ack.id }));
    await waitFor(() => executorRequests() > before, 'the executor to work again');
    expect(await isPaused(app.ctx, ticket)).toBe(false);
    const resumed = llm.requests.filter((r) => roleOf(r) === 'executor').at(-1);
    expect(JSON.stringify(resumed?.messages)).toContain(followUp);
    expect((await botMessages(app.ctx)).map((m) => m.text)).toContain(`Resumed ${ticket}.`);
  });
});
