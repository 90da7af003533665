import { afterEach, expect, it } from 'vitest';
import { hasCandidates } from '../../../src/router/candidates.ts';
import { startTestApp, type TestApp, waitFor } from '../../kit/app.ts';
import { type FakeLlm, type RecordedRequest, startFakeLlm, text } from '../../kit/fake-llm.ts';
import { ackAll, continues, openAll, roleOf } from '../../kit/scripted-model.ts';
import { localMessage, openTicketIn, routedOf, send, ticketOpenedBy } from '../routing/helpers.ts';
import { api, COST_TOKEN, sumNanos } from './cost-kit.ts';

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Each main-session answer a 300k-token prompt: $0.045 off-peak, $0.09 at peak — over $0.04 at once. */
function expensiveRouting(llm: FakeLlm) {
  llm.respond((req: RecordedRequest) => {
    if (roleOf(req) !== 'main') return continues(req) ? text('Done.') : ackAll(req);
    const usage = { prompt_tokens: 300_000, completion_tokens: 10 };
    return { ...(continues(req) ? text('Routed.') : openAll(req)), usage };
  });
}

let started: { app: TestApp; llm: FakeLlm } | undefined;
afterEach(async () => {
  await started?.app.close();
  await started?.llm.close();
  started = undefined;
});

it('issue 33 item 5: over the day’s budget the main session makes no model request; a card waits and is routed once the budget is raised', async () => {
  const llm = await startFakeLlm();
  expensiveRouting(llm);
  const app = await startTestApp({
    ADMIN_TOKEN: COST_TOKEN,
    LLM_BASE_URL: llm.baseURL,
    LLM_API_KEY: 'sk-budget-main',
    DAILY_BUDGET_USD: '0.04',
  });
  started = { app, llm };
  const mains = () => llm.requests.filter((r) => roleOf(r) === 'main');
  // With a ticket open in the chat, a new request is no code-opened one: it is the main session's.
  const chat = 'budget-main';
  await openTicketIn(app.ctx, chat);

  // The first routing request spends the day's budget: the turn stops before its second.
  const first = await send(app.ctx, localMessage('please add a changelog', { chat }));
  const opened = await ticketOpenedBy(app.ctx, first);
  await waitFor(async () => (await api(app, '/budgets')).body.mainHeld, 'the main session to wait');
  await settle(500);
  expect(mains()).toHaveLength(1);
  expect(sumNanos(llm.requests)).toBeGreaterThanOrEqual(0.04e9);

  // A second request: no main request while the budget is spent, and the card is not lost.
  const second = await send(app.ctx, localMessage('please also bump the version', { chat }));
  await settle(1500);
  expect(mains()).toHaveLength(1);
  // Routing code handed it to the main session, where it waits undecided.
  expect(await routedOf(app.ctx, second)).toEqual({ kind: 'candidate' });
  expect(await hasCandidates(app.ctx)).toBe(true);
  const held = (await api(app, '/budgets')).body;
  expect(held.mainHeld.since).toBeGreaterThan(0);
  expect(held.held).toContain(opened);

  // Raised: routing goes on by itself, the waiting card is decided, and the paused ticket resumes.
  const raised = await api(app, '/budgets', { method: 'PUT', body: { dailyUsd: 5 } });
  expect(raised.status).toBe(200);
  expect(raised.body.resumed).toEqual([opened]);
  expect(raised.body.mainHeld).toBeNull();
  const next = await ticketOpenedBy(app.ctx, second);
  expect(next).not.toBe(opened);
  // The report of the budget's pause waited too: the main session reads it once routing goes on.
  const reads = (r: RecordedRequest) =>
    JSON.stringify(r.messages).includes(`${opened} blocked (host: the turn stopped, out of budget)`);
  await waitFor(() => mains().slice(1).some(reads), 'the budget report to reach the main session');
  expect(mains()[0] && reads(mains()[0] as RecordedRequest)).toBe(false);
});
