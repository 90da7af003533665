import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCard } from '../../../src/cards/ingest.ts';
import { releaseBudgetHolds } from '../../../src/safety/budget-release.ts';
import { noteBudgetHold } from '../../../src/stats/budgets.ts';
import { getPause, pauseLog, pauseTicket, resumeTicket } from '../../../src/tickets/pause.ts';
import { createTicket } from '../../../src/tickets/ticket-store.ts';
import { startTestApp, type TestApp } from '../../kit/app.ts';
import { localMessage, send } from '../routing/helpers.ts';

/** Issue 17: the ticket's pauses and resumes, as the trajectory shows them (R-D2). */
describe('issue 17: the pause log', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  async function freshTicket(text: string): Promise<string> {
    const cardId = await send(app.ctx, localMessage(text));
    const card = await loadCard(app.ctx, cardId);
    if (!card) throw new Error('card not stored');
    return (await createTicket(app.ctx, card, { why: 'explicit request' })).id;
  }

  it('issue 17, R-D2: a pause is logged once (a second pause of a paused ticket is not), a resume with who lifted it', async () => {
    const { ctx } = app;
    const id = await freshTicket('Please pause-log the first ticket');
    expect(await pauseTicket(ctx, id, { by: 'ada', at: 1, via: 'message' })).toBe(true);
    expect(await pauseTicket(ctx, id, { by: 'bob', at: 2, via: 'api' })).toBe(false);
    expect(await resumeTicket(ctx, id, { by: 'bob', at: 3, via: 'api' })).toBe(true);
    expect(await resumeTicket(ctx, id, { by: 'bob', at: 4, via: 'api' })).toBe(false);
    expect(await pauseLog(ctx, id)).toEqual([
      { kind: 'pause', at: 1, by: 'ada', via: 'message' },
      { kind: 'resume', at: 3, by: 'bob', via: 'api' },
    ]);
  });

  it('R-D2, issue 33 item 5: a person’s pause takes the place of a budget’s, so the budget’s release does not lift it', async () => {
    const { ctx } = app;
    const id = await freshTicket('Please pause-log the budget ticket');
    expect(await pauseTicket(ctx, id, { by: 'budget', at: 1, via: 'budget' })).toBe(true);
    await noteBudgetHold(ctx, id, 1);
    expect(await pauseTicket(ctx, id, { by: 'ada', at: 2, via: 'message' })).toBe(true);
    // A person's pause stays the first one: another person's, or a budget's, does not replace it.
    expect(await pauseTicket(ctx, id, { by: 'bob', at: 3, via: 'api' })).toBe(false);
    expect(await pauseTicket(ctx, id, { by: 'budget', at: 4, via: 'budget' })).toBe(false);
    // No budget is spent: the release would resume a budget's pause, and leaves the person's.
    expect(await releaseBudgetHolds(ctx)).toEqual([]);
    expect(await getPause(ctx, id)).toMatchObject({ by: 'ada', via: 'message' });
    expect((await pauseLog(ctx, id)).map((e) => `${e.kind} ${e.via}`)).toEqual([
      'pause budget',
      'pause message',
    ]);
  });

  it('issue 17: a breaker’s pause carries its limit in the log', async () => {
    const { ctx } = app;
    const id = await freshTicket('Please pause-log the breaker ticket');
    await pauseTicket(ctx, id, { by: 'circuit breaker', at: 5, via: 'breaker' }, 'over 30 messages an hour');
    expect(await pauseLog(ctx, id)).toEqual([
      { kind: 'pause', at: 5, by: 'circuit breaker', via: 'breaker', detail: 'over 30 messages an hour' },
    ]);
  });
});
