import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCard } from '../../../src/cards/ingest.ts';
import { pauseLog, pauseTicket, resumeTicket } from '../../../src/tickets/pause.ts';
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

  it('issue 17: a breaker’s pause carries its limit in the log', async () => {
    const { ctx } = app;
    const id = await freshTicket('Please pause-log the breaker ticket');
    await pauseTicket(ctx, id, { by: 'circuit breaker', at: 5, via: 'breaker' }, 'over 30 messages an hour');
    expect(await pauseLog(ctx, id)).toEqual([
      { kind: 'pause', at: 5, by: 'circuit breaker', via: 'breaker', detail: 'over 30 messages an hour' },
    ]);
  });
});
