import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Ctx } from '../../src/context.ts';
import type { MainBatch } from '../../src/router/main/batch.ts';
import { stopTool } from '../../src/router/main/stop-tool.ts';
import { createRuntime, type Runtime } from '../../src/runtime.ts';
import { releaseBudgetHolds } from '../../src/safety/budget-release.ts';
import { noteBudgetHold } from '../../src/stats/budgets.ts';
import { getPause, pauseLog, pauseTicket } from '../../src/tickets/pause.ts';
import { localMessage, openTicketIn, send } from '../integration/routing/helpers.ts';
import { startTestApp, type TestApp } from '../kit/app.ts';

/**
 * Issue 46 item 6: pauses that hold under money. A budget's pause lifts itself when the budget
 * allows; a stop or a person's pause must not. The release reads the pause, checks the budget and
 * lifts; whatever lands between the read and the lift is the race. Workers are off, so the safety
 * queue's own release never runs beside the test's.
 */

let app: TestApp;
let rt: Runtime;
beforeEach(async () => {
  app = await startTestApp({}, { workers: false });
  rt = await createRuntime(app.ctx);
});
afterEach(async () => {
  await app.close();
});

/** A ticket paused because its budget was spent, as `withinBudget` leaves it. */
async function budgetPaused(): Promise<string> {
  const ticket = await openTicketIn(app.ctx, 'budget-race');
  const at = app.ctx.now();
  await pauseTicket(app.ctx, ticket, { by: 'budget', at, via: 'budget' }, 'ticket budget $0.05 spent');
  await noteBudgetHold(app.ctx, ticket, at);
  return ticket;
}

/** The main session's stop of `ticket` because of a follow-up notice `card` from its steerer. */
async function stopByMain(ticket: string): Promise<string> {
  const card = await send(app.ctx, localMessage('never mind, stop this please', { chat: 'budget-race' }));
  const batch: MainBatch = {
    turnId: 'main-race',
    cards: new Map(),
    reasons: new Map(),
    decided: new Map(),
    notices: new Map([[ticket, [{ cardId: card, steers: true }]]]),
  };
  const call = { sessionId: 'main-race', toolCallId: 'c1', idempotencyKey: 'main-race:c1' };
  const result = await stopTool(rt, batch).run({ card, reason: 'The requester withdrew it.' }, call);
  if (!result.ok) throw new Error(result.error);
  return result.content;
}

/** The app's context, but the first read of `ticket`'s pause answers and then lets `meanwhile` run. */
function readingPauseThen(ticket: string, meanwhile: () => Promise<unknown>): Ctx {
  const key = app.ctx.keys.pause(ticket);
  let once = false;
  const redis = new Proxy(app.ctx.redis, {
    get(target, prop, receiver) {
      if (prop !== 'get' || once) return Reflect.get(target, prop, receiver);
      return async (...args: Parameters<Redis['get']>) => {
        const answer = await target.get(...args);
        if (args[0] === key && !once) {
          once = true;
          await meanwhile();
        }
        return answer;
      };
    },
  });
  return { ...app.ctx, redis };
}

describe('pauses that hold under money (issue 46 item 6)', () => {
  it('orchestrator_stop on a ticket paused for its budget holds when the budget allows again', async () => {
    const ticket = await budgetPaused();
    expect(await stopByMain(ticket)).toBe(
      `stopped ${ticket}: paused, not closed; a person’s /resume lets the work go on`,
    );
    expect(await getPause(app.ctx, ticket)).toMatchObject({ via: 'main', by: 'main session' });
    // No budget is set in this app: the release finds the ticket within it, as after a raise.
    expect(await releaseBudgetHolds(app.ctx)).toEqual([]);
    expect(await getPause(app.ctx, ticket)).toMatchObject({ via: 'main' });
  });

  it('R-D2: a person’s /pause landing between the release’s read and its lift is never lifted', async () => {
    const ticket = await budgetPaused();
    const person = () =>
      pauseTicket(app.ctx, ticket, { by: 'alice', at: app.ctx.now(), cardId: 'lm-alice', via: 'message' });
    const released = await releaseBudgetHolds(readingPauseThen(ticket, person));
    expect(released).toEqual([]);
    expect(await getPause(app.ctx, ticket)).toMatchObject({ via: 'message', by: 'alice' });
    expect((await pauseLog(app.ctx, ticket)).map((e) => e.kind)).toEqual(['pause', 'pause']);
  });

  it('a stop landing between the release’s read and its lift holds', async () => {
    const ticket = await budgetPaused();
    const released = await releaseBudgetHolds(readingPauseThen(ticket, () => stopByMain(ticket)));
    expect(released).toEqual([]);
    expect(await getPause(app.ctx, ticket)).toMatchObject({ via: 'main' });
  });

  it('the release still lifts a budget’s pause that nothing replaced', async () => {
    const ticket = await budgetPaused();
    expect(await releaseBudgetHolds(app.ctx)).toEqual([ticket]);
    expect(await getPause(app.ctx, ticket)).toBeUndefined();
  });
});
