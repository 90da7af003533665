import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, waitFor } from '../../kit/app.ts';
import { type FakeLlm, type RecordedRequest, startFakeLlm, text, toolCalls } from '../../kit/fake-llm.ts';
import { ackAll, continues, openAll, roleOf } from '../../kit/scripted-model.ts';
import { localMessage, send, ticketOpenedBy } from '../routing/helpers.ts';
import { api, COST_TOKEN, executorRequestsOf, sumNanos } from './cost-kit.ts';

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Acknowledges, reports done, ends; every answer with a large prompt so the cost is well above rounding. */
function executor(req: RecordedRequest) {
  const usage = { prompt_tokens: 40_000 + req.messages.length, completion_tokens: 1_234 };
  if (!continues(req)) return { ...ackAll(req), usage };
  const reported = req.messages.some((m) => m.tool_calls?.some((c) => c.function.name === 'report'));
  return reported
    ? text('Done.', usage)
    : { ...toolCalls(['report', { status: 'done', summary: 'Answered.' }]), usage };
}

describe('issue 33 item 5: cost per ticket, repository, chat and day from the provider’s usage', () => {
  let llm: FakeLlm;
  let app: TestApp;
  beforeEach(async () => {
    llm = await startFakeLlm();
    llm.respond((req) =>
      roleOf(req) === 'main' ? (continues(req) ? text('Routed.') : openAll(req)) : executor(req),
    );
    app = await startTestApp({ ADMIN_TOKEN: COST_TOKEN, LLM_BASE_URL: llm.baseURL, LLM_API_KEY: 'sk-cost' });
  });
  afterEach(async () => {
    await app?.close();
    await llm?.close();
  });

  it('issue 33 item 5: the ticket’s and the day’s cost equal the deepseek-flash list price applied by hand to the reported usage', async () => {
    const card = await send(app.ctx, localMessage('please answer the question', { chat: 'cost-a' }));
    const ticket = await ticketOpenedBy(app.ctx, card);
    // Settled: the fake's last answer is in (the executor's closing text) and nothing else comes.
    await waitFor(
      () =>
        executorRequestsOf(llm.requests, ticket).some((r) => r.usage && r.messages.at(-1)?.role === 'tool'),
      'the executor’s requests',
    );
    await settle(800);
    const own = executorRequestsOf(llm.requests, ticket);
    expect(own.length).toBeGreaterThanOrEqual(3);
    // DeepSeek's context cache served part of the later prompts: cache hits are priced apart.
    expect(own.some((r) => Number(r.usage?.prompt_cache_hit_tokens) > 0)).toBe(true);
    const ticketNanos = sumNanos(own);
    expect(ticketNanos).toBeGreaterThan(0);

    const detail = await api(app, `/tickets/${ticket}`);
    expect(detail.status).toBe(200);
    expect(Math.round(detail.body.costUsd * 1e9)).toBe(ticketNanos);

    // The day holds every request, the main session's too (a report may start a main turn late).
    const dayCost = async () => (await api(app, '/stats/daily?days=1')).body.days[0].cost;
    await waitFor(
      async () => Math.round((await dayCost()).usd * 1e9) === sumNanos(llm.requests),
      'the day’s cost to equal the hand-computed figure',
    );
    const day = await dayCost();
    const dayNanos = sumNanos(llm.requests);
    expect(Math.round(day.usd * 1e9)).toBe(dayNanos);
    expect(Math.round(day.tickets[ticket] * 1e9)).toBe(ticketNanos);
    expect(Math.round(day.kinds.executor * 1e9)).toBe(ticketNanos);
    expect(Math.round((day.kinds.main ?? 0) * 1e9)).toBe(dayNanos - ticketNanos);
    expect(Math.round(day.chats['local:cost-a'] * 1e9)).toBe(ticketNanos);
  });
});
