import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../kit/app.ts';
import { text } from '../../kit/fake-llm.ts';
import { openAll, roleOf } from '../../kit/scripted-model.ts';
import { localMessage, send, ticketOpenedBy } from '../routing/helpers.ts';
import { startWorld, type World } from './harness.ts';

/**
 * Issue 19: how many executor turns one worker process runs at once is configuration
 * (`EXECUTOR_CONCURRENCY`). Three tickets' turns are started together; the fake model holds every
 * executor request (until all are in flight, or a while) and counts how many are in flight at the same moment.
 */
async function peakExecutorRequests(w: World, tickets: number, holdMs: number): Promise<number> {
  let inFlight = 0;
  let peak = 0;
  let answered = 0;
  let started = 0;
  w.llm.respond(async (req) => {
    if (roleOf(req) === 'main') return req.messages.at(-1)?.role === 'tool' ? text('Routed.') : openAll(req);
    // A turn may ask again after its first answer; only the first request of each is held.
    if (started++ >= tickets) return text('Nothing to do here.');
    inFlight++;
    peak = Math.max(peak, inFlight);
    // Held until every ticket's request is in flight at once, or `holdMs` passed.
    const until = Date.now() + holdMs;
    while (peak < tickets && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    inFlight--;
    answered++;
    return text('Nothing to do here.');
  });
  const cards = [];
  for (let i = 0; i < tickets; i++)
    cards.push(await send(w.app.ctx, localMessage(`Please look at issue ${i}`, { chat: `room-${i}` })));
  const ids = await Promise.all(cards.map((c) => ticketOpenedBy(w.app.ctx, c)));
  expect(new Set(ids).size).toBe(tickets);
  await waitFor(() => answered >= tickets, 'every ticket’s executor request', 30_000);
  return peak;
}

describe('executor concurrency per worker (issue 19)', () => {
  let w: World | undefined;
  afterEach(async () => {
    await w?.close();
    w = undefined;
  });

  it('issue 19: EXECUTOR_CONCURRENCY=1 runs one executor turn at a time in a worker', async () => {
    w = await startWorld({ EXECUTOR_CONCURRENCY: '1', CHAT_REPOS: '' });
    expect(await peakExecutorRequests(w, 3, 1500)).toBe(1);
  });

  it('issue 19: EXECUTOR_CONCURRENCY=3 runs three tickets’ turns side by side', async () => {
    w = await startWorld({ EXECUTOR_CONCURRENCY: '3', CHAT_REPOS: '' });
    expect(await peakExecutorRequests(w, 3, 10_000)).toBe(3);
  });
});
