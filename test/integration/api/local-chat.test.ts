import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scheduleTurn } from '../../../src/executor/schedule-turn.ts';
import { startTestApp, type TestApp, waitFor } from '../../kit/app.ts';
import { type FakeLlm, startFakeLlm } from '../../kit/fake-llm.ts';
import { ackAll, openAll, roleOf, scriptedModel } from '../../kit/scripted-model.ts';
import { call, TOKEN } from './client.ts';

interface Item {
  type: 'message' | 'reaction';
  from?: 'person' | 'bot';
  id: string;
  replyTo?: string | null;
  messageId?: string;
  emoji?: string;
  text?: string;
  tickets?: string[];
}

/**
 * The panel's "Try it" chat end to end through the API: a local message goes through the same
 * ingest and routing as a Feishu one; a pause through the API holds the executor (R-D2).
 */
describe('/api/local/messages and pause/resume through the API', () => {
  let llm: FakeLlm;
  let app: TestApp;
  beforeEach(async () => {
    llm = await startFakeLlm();
    llm.respond(scriptedModel({ main: openAll, executor: ackAll }));
    app = await startTestApp({ ADMIN_TOKEN: TOKEN, LLM_BASE_URL: llm.baseURL, LLM_API_KEY: 'k' });
  });
  afterEach(async () => {
    await app.close();
    await llm.close();
  });
  const conversation = async (
    chat = 'try',
  ): Promise<{ items: Item[]; tickets: { id: string; pause: unknown }[] }> =>
    (await call(app, 'GET', `/local/messages?chat=${chat}`)).body;
  const executorRequests = () => llm.requests.filter((r) => roleOf(r) === 'executor').length;

  /** Sends a request in the `try` chat and waits for its acknowledgement and reaction. */
  async function request() {
    const sent = await call(app, 'POST', '/local/messages', {
      body: { text: 'Please add a health check endpoint', chat: 'try' },
      headers: { 'x-switchyard-who': 'ada' },
    });
    expect(sent.status).toBe(202);
    const { cardId } = sent.body;
    const convo = await waitFor(
      async () => {
        const c = await conversation();
        const acked = c.items.some((i) => i.from === 'bot' && (i.text ?? '').includes(cardId));
        return acked && c.items.some((i) => i.type === 'reaction') ? c : undefined;
      },
      'a bot reply and a reaction',
      15_000,
    );
    const reply = convo.items.find((i) => i.from === 'bot' && (i.text ?? '').includes(cardId)) as Item;
    return { sent, convo, reply, ticketId: convo.tickets[0]?.id as string };
  }

  it('a local message opens a ticket; the reaction and the bot reply show in the conversation', async () => {
    const { sent, convo, reply, ticketId } = await request();
    expect(sent.body).toMatchObject({ chat: 'try', cardId: expect.stringMatching(/^local-/) });
    const { messageId, cardId } = sent.body;
    const person = convo.items.find((i) => i.from === 'person');
    expect(person).toMatchObject({
      id: messageId,
      text: 'Please add a health check endpoint',
      replyTo: null,
    });
    expect(reply.replyTo).toBe(messageId);
    expect(reply.text).toContain(cardId);
    expect(convo.items.find((i) => i.type === 'reaction')).toMatchObject({ messageId, emoji: 'eyes' });
    // The request, its reaction, the ticket's status message (issue 9), the acknowledgement.
    expect(convo.items.map((i) => i.type)).toEqual(['message', 'reaction', 'message', 'message']);
    expect(convo.tickets).toHaveLength(1);
    expect(reply.tickets).toEqual([ticketId]);
    expect((await conversation('elsewhere')).items).toEqual([]);
  });

  it('R-D2: a pause through the API shows on the ticket and holds the executor until resumed', async () => {
    const { ticketId, reply } = await request();
    const paused = await call(app, 'POST', `/tickets/${ticketId}/pause`, {
      headers: { 'x-switchyard-who': 'lead' },
    });
    expect(paused).toMatchObject({
      status: 200,
      body: { paused: true, changed: true, pause: { by: 'lead', via: 'api' } },
    });
    expect((await call(app, 'GET', `/tickets/${ticketId}`)).body.pause).toMatchObject({
      by: 'lead',
      via: 'api',
    });
    expect((await call(app, 'POST', `/tickets/${ticketId}/pause`)).body.changed).toBe(false);
    // The turn that acknowledged may still be between steps: it stops at its next gate (after the
    // request in flight, if any). Count from when it has stopped.
    await waitFor(
      async () => (await app.ctx.queues.executor.getJobCounts('active')).active === 0,
      'the acknowledging turn stopped',
    );
    const before = executorRequests();
    const follow = await call(app, 'POST', '/local/messages', {
      body: { text: 'also log each probe', chat: 'try', replyTo: reply.id },
    });
    expect(follow.status).toBe(202);
    const { ctx } = app;
    await waitFor(
      async () => {
        const cards = (await call(app, 'GET', `/tickets/${ticketId}`)).body.cards as { cardId: string }[];
        const counts = await ctx.queues.executor.getJobCounts('waiting', 'active', 'delayed');
        const idle = !counts.waiting && !counts.active && !counts.delayed;
        return cards.some((c) => c.cardId === follow.body.cardId) && idle;
      },
      'the follow-up attached and the executor queue idle',
      15_000,
    );
    // Routing queues no turn for a paused ticket; a turn queued anyway (one scheduled just before
    // the pause) runs and stops at the pause, before any model request.
    await scheduleTurn(ctx, ticketId);
    await waitFor(async () => {
      const done = await ctx.queues.executor.getJobs(['completed']);
      return done.some((j) => (j.returnvalue as { kind?: string } | null)?.kind === 'paused');
    }, 'an executor turn that found the ticket paused');
    await new Promise((r) => setTimeout(r, 200));
    expect(executorRequests()).toBe(before);
    // The follow-up waits in the inbox (with the request, when the pause stopped the turn that
    // acknowledged it before it ended: a stopped turn hands its batch to the turn after the resume).
    expect(await ctx.redis.lrange(ctx.keys.ticketInbox(ticketId), 0, -1)).toContain(follow.body.cardId);

    const resumed = await call(app, 'POST', `/tickets/${ticketId}/resume`);
    expect(resumed).toMatchObject({ status: 200, body: { paused: false, changed: true } });
    await waitFor(
      async () =>
        (await conversation()).items.some((i) => i.from === 'bot' && i.replyTo === follow.body.messageId),
      'the executor answering the follow-up after the resume',
      15_000,
    );
    const detail = (await call(app, 'GET', `/tickets/${ticketId}`)).body;
    expect(detail.pause).toBeNull();
    expect(detail.sessions[0].revisions).toEqual([0]);
    expect(detail.outbox.length).toBeGreaterThanOrEqual(2);
  });

  it('400 for a bad body or chat id, naming the reason', async () => {
    for (const body of [
      { text: '' },
      { text: 'hi', chat: 'has space' },
      { text: 'hi', colour: 1 },
      { chat: 'x' },
    ]) {
      const r = await call(app, 'POST', '/local/messages', { body });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('bad_request');
      expect(r.body.error.length).toBeGreaterThan(3);
    }
    expect((await call(app, 'GET', '/local/messages?chat=reactions')).status).toBe(400);
    expect((await call(app, 'POST', '/local/messages', { body: 'not json' })).status).toBe(400);
  });
});
