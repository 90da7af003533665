import { afterEach, describe, expect, it } from 'vitest';
import { releaseBudgetHolds } from '../../../src/safety/budget-release.ts';
import { getPause, pauseLog } from '../../../src/tickets/pause.ts';
import { startTestApp, type TestApp, waitFor } from '../../kit/app.ts';
import { type FakeLlm, type RecordedRequest, startFakeLlm, text, toolCalls } from '../../kit/fake-llm.ts';
import { continues, openAll, roleOf } from '../../kit/scripted-model.ts';
import { botMessages, localMessage, send, ticketOpenedBy } from '../routing/helpers.ts';
import { api, COST_TOKEN, executorRequestsOf, handNanos, sumNanos } from './cost-kit.ts';

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));
const DAY_MS = 86_400_000;

/** An executor that never stops, each answer a 100k-token prompt: $0.015 off-peak, $0.03 at peak. */
function runaway(llm: FakeLlm) {
  llm.respond((req: RecordedRequest) => {
    if (roleOf(req) === 'main') return continues(req) ? text('Routed.') : openAll(req);
    const call = toolCalls(['report', { status: 'working', summary: 'Still going.' }]);
    return { ...call, usage: { prompt_tokens: 100_000, completion_tokens: 10 } };
  });
}

/** How many requests it takes for their running cost to reach `usd`. */
function requestsToSpend(requests: RecordedRequest[], usd: number): number {
  let nanos = 0;
  for (const [i, r] of requests.entries()) {
    nanos += handNanos(r);
    if (nanos >= usd * 1e9) return i + 1;
  }
  return Number.POSITIVE_INFINITY;
}

describe('issue 33 item 5: budgets pause new model work, tell the requester once, and let it go on', () => {
  // Each test starts its own product with its budgets (issue 20: a fresh key prefix each).
  let started: { app: TestApp; llm: FakeLlm } | undefined;
  const start = async (env: Record<string, string>) => {
    const llm = await startFakeLlm();
    runaway(llm);
    const app = await startTestApp({
      ADMIN_TOKEN: COST_TOKEN,
      LLM_BASE_URL: llm.baseURL,
      LLM_API_KEY: 'sk-budget',
      ...env,
    });
    started = { app, llm };
    const asks = async (chat: string) =>
      (await botMessages(app.ctx, chat)).filter((m) => m.text.startsWith('I paused'));
    return { app, llm, asks };
  };
  afterEach(async () => {
    await started?.app.close();
    await started?.llm.close();
    started = undefined;
  });

  it('issue 33 item 5: a ticket budget stops the executor before its next request; one message; raising it lets the work go on', async () => {
    const { app, llm, asks } = await start({ TICKET_BUDGET_USD: '0.05' });
    const card = await send(app.ctx, localMessage('please work forever', { chat: 'budget-a' }));
    const ticket = await ticketOpenedBy(app.ctx, card);
    await waitFor(async () => (await asks('budget-a')).length, 'the budget message');
    await settle(800);
    const own = () => executorRequestsOf(llm.requests, ticket);
    // Stopped before the request after the one that spent the budget: not one more.
    expect(own().length).toBe(requestsToSpend(own(), 0.05));
    expect(await getPause(app.ctx, ticket)).toMatchObject({ via: 'budget', by: 'budget' });
    const [ask, ...more] = await asks('budget-a');
    expect(more).toHaveLength(0);
    expect(ask?.text).toContain(`I paused ${ticket}`);
    expect(ask?.text).toContain('budget of $0.0500 per ticket');
    const detail = await api(app, `/tickets/${ticket}`);
    expect(Math.round(detail.body.costUsd * 1e9)).toBe(sumNanos(own()));
    expect((await api(app, '/budgets')).body).toMatchObject({ ticketUsd: 0.05, held: [ticket] });

    // A person's /resume while still over budget: paused again before any request, no second message.
    const stopped = own().length;
    await send(app.ctx, localMessage('/resume', { chat: 'budget-a', replyTo: ask?.messageId ?? '' }));
    await waitFor(async () => (await pauseLog(app.ctx, ticket)).length >= 3, 'the pause after the resume');
    await settle(500);
    expect(own().length).toBe(stopped);
    expect(await asks('budget-a')).toHaveLength(1);

    // Raised: the ticket goes on by itself, up to the new budget.
    const raised = await api(app, '/budgets', { method: 'PUT', body: { ticketUsd: 0.2 } });
    expect(raised.status).toBe(200);
    expect(raised.body.resumed).toEqual([ticket]);
    await waitFor(async () => (await asks('budget-a')).length === 2, 'the message at the raised budget');
    await settle(500);
    expect(own().length).toBe(requestsToSpend(own(), 0.2));
    expect(own().length).toBeGreaterThan(stopped);
  });

  it('issue 33 item 5: a day budget pauses every ticket’s model work for the day; the next UTC day releases them', async () => {
    const { app, llm, asks } = await start({ DAILY_BUDGET_USD: '0.04' });
    const first = await ticketOpenedBy(
      app.ctx,
      await send(app.ctx, localMessage('work on A', { chat: 'day-a' })),
    );
    await waitFor(async () => (await asks('day-a')).length, 'the day budget message');
    await settle(500);
    const dayNanos = sumNanos(llm.requests);
    expect(dayNanos).toBeGreaterThanOrEqual(0.04e9);
    const [ask] = await asks('day-a');
    expect(ask?.text).toContain("today's model requests have cost");
    expect(ask?.text).toContain('daily budget of $0.0400');

    // Another ticket of the same day: paused before its first model request.
    const before = llm.requests.length;
    const second = await ticketOpenedBy(
      app.ctx,
      await send(app.ctx, localMessage('work on B', { chat: 'day-b' })),
    );
    await waitFor(async () => (await asks('day-b')).length, 'the second ticket’s message');
    expect(executorRequestsOf(llm.requests, second)).toHaveLength(0);
    expect(llm.requests.length).toBe(before);
    expect(await getPause(app.ctx, second)).toMatchObject({ via: 'budget' });

    // Still today: nothing is released. Tomorrow (UTC): both go on.
    expect(await releaseBudgetHolds(app.ctx)).toEqual([]);
    const tomorrow = { ...app.ctx, now: () => Date.now() + DAY_MS };
    expect((await releaseBudgetHolds(tomorrow)).sort()).toEqual([first, second].sort());
    const resumes = async (id: string) =>
      (await pauseLog(app.ctx, id)).filter((e) => e.kind === 'resume' && e.by === 'budget');
    expect(await resumes(first)).toHaveLength(1);
    expect(await resumes(second)).toHaveLength(1);
  });
});
