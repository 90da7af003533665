import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listTickets } from '../../src/tickets/ticket-store.ts';
import { botMessages, localMessage, send } from '../integration/routing/helpers.ts';
import { startTestApp, type TestApp, waitFor } from '../kit/app.ts';
import {
  type FakeLlm,
  type FakeReply,
  failure,
  type RecordedRequest,
  startFakeLlm,
} from '../kit/fake-llm.ts';
import { ackAll, cardsIn, openAll, roleOf, scriptedModel } from '../kit/scripted-model.ts';

/** When each request of a session kind arrived at the fake model (ms since the epoch). */
function stamp(llm: FakeLlm, handler: (req: RecordedRequest) => FakeReply, at: number[]) {
  llm.respond((req) => {
    if (roleOf(req) === 'executor') at.push(Date.now());
    return handler(req);
  });
}

/**
 * Issue 8: the model endpoint failing (500s) or answering with malformed tool calls. The turn
 * retries with back-off, then reports `blocked` with the reason: the ticket waits, the requester
 * gets one message naming why, and nothing is left half-done (no message twice, the turn's batch
 * settled, the job completed rather than failed or retried).
 */
describe('the model failing mid-turn', () => {
  let llm: FakeLlm;
  let app: TestApp;
  beforeEach(async () => {
    llm = await startFakeLlm();
    app = await startTestApp({ LLM_BASE_URL: llm.baseURL, LLM_API_KEY: 'test-key' });
  });
  afterEach(async () => {
    await app?.close();
    await llm?.close();
  });

  async function blockedTicket(chat: string, card: string) {
    const ticket = await waitFor(
      async () => (await listTickets(app.ctx)).find((t) => t.openedBy === card && t.state === 'waiting'),
      'the ticket to wait for a person',
      30_000,
    );
    const said = await waitFor(
      async () => {
        const found = (await botMessages(app.ctx, chat)).filter(
          (m) => m.op === 'local.reply' && /I stopped work/.test(m.text),
        );
        return found.length ? found : undefined;
      },
      'the blocked message',
      10_000,
    );
    return { ticket, said };
  }

  it('issue 8: 500s after the acknowledgement → retried with back-off → ticket waiting, one message naming the 500', async () => {
    const at: number[] = [];
    let executorRequests = 0;
    stamp(
      llm,
      scriptedModel({
        main: openAll,
        executor: (req) => {
          executorRequests += 1;
          return ackAll(req);
        },
        onResults: (_req, role) => (role === 'executor' ? failure(500) : undefined),
      }),
      at,
    );
    const card = await send(app.ctx, localMessage('Please bump the lodash version', { chat: 'm500' }));
    const { ticket, said } = await blockedTicket('m500', card);

    // The opening request, then the failing step: asked 4 times in all, the waits growing.
    expect(executorRequests).toBe(1);
    expect(at).toHaveLength(5);
    const gaps = at.slice(2).map((t, i) => t - (at[i + 1] as number));
    expect(gaps[0]).toBeGreaterThanOrEqual(350);
    expect(gaps[2]).toBeGreaterThan(gaps[0] as number);

    expect(said).toHaveLength(1);
    expect(said[0]?.text).toMatch(new RegExp(`${ticket.id}.*model failed.*500.*after 4 attempts`));
    const reports = await app.ctx.redis.lrange(app.ctx.keys.ticketReports(ticket.id), 0, -1);
    expect(reports.map((r) => JSON.parse(r))).toContainEqual(
      expect.objectContaining({ status: 'blocked', summary: expect.stringMatching(/model failed.*500/) }),
    );
    await settledOnce('m500', card);
  }, 60_000);

  it('issue 8: malformed tool calls every time → retried → ticket waiting, one message naming them', async () => {
    const at: number[] = [];
    stamp(
      llm,
      scriptedModel({
        main: openAll,
        executor: (req) => ({
          type: 'message',
          toolCalls: [{ name: 'reply', arguments: `{"to": "${cardsIn(req)[0]}", "text": "On it` }],
        }),
      }),
      at,
    );
    const card = await send(app.ctx, localMessage('Please tidy the README', { chat: 'mbad' }));
    const { ticket, said } = await blockedTicket('mbad', card);

    expect(at).toHaveLength(4);
    expect(said).toHaveLength(1);
    expect(said[0]?.text).toMatch(new RegExp(`${ticket.id}.*model failed.*[Mm]alformed`));
    // The garbled arguments are not echoed to people.
    expect(said[0]?.text).not.toContain('On it');
    // The half-written reply never went out: the only reply is the one naming why (the ticket's
    // live status message aside).
    const replies = (await botMessages(app.ctx, 'mbad')).filter((m) => m.op === 'local.reply');
    expect(replies).toHaveLength(1);
    await settledOnce('mbad', card);
  }, 60_000);

  /** No message twice, the turn's batch settled, the executor job completed (not failed, not retried). */
  async function settledOnce(chat: string, card: string): Promise<void> {
    await new Promise((r) => setTimeout(r, 300));
    const texts = (await botMessages(app.ctx, chat)).map((m) => m.text);
    expect(new Set(texts).size).toBe(texts.length);
    const jobs = await app.ctx.queues.executor.getJobs([
      'completed',
      'failed',
      'active',
      'waiting',
      'delayed',
    ]);
    const states = await Promise.all(jobs.map((j) => j.getState()));
    expect(states.filter((s) => s !== 'completed')).toEqual([]);
    for (const j of jobs) {
      expect(await app.ctx.redis.exists(app.ctx.keys.turnBatch(j.id as string))).toBe(0);
      expect(j.attemptsMade).toBeLessThanOrEqual(1);
    }
    expect(await app.ctx.queues.outbox.getJobCounts('failed')).toMatchObject({ failed: 0 });
    expect(card).toBeTruthy();
  }
});
