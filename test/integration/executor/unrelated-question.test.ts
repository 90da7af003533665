import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TriggerCard } from '../../../src/cards/card.ts';
import { loadCard } from '../../../src/cards/ingest.ts';
import { replyTool } from '../../../src/executor/tools/reply-tool.ts';
import { reportTool } from '../../../src/executor/tools/report-tool.ts';
import type { TurnScope } from '../../../src/executor/turn-scope.ts';
import { createRuntime } from '../../../src/runtime.ts';
import { attachCard } from '../../../src/tickets/attach.ts';
import { threadKeys } from '../../../src/tickets/ref-key.ts';
import { lastReport } from '../../../src/tickets/reports.ts';
import { createTicket } from '../../../src/tickets/ticket-store.ts';
import { declareUnrelated } from '../../../src/tickets/unrelated.ts';
import { startTestApp, type TestApp } from '../../kit/app.ts';
import { localMessage, send } from '../routing/helpers.ts';

const call = (n: number) => ({ sessionId: 's', toolCallId: `c${n}`, idempotencyKey: `s:${n}:c${n}` });

describe('no question into a thread declared unrelated (R-C4, R-C5)', () => {
  let app: TestApp;
  beforeEach(async () => {
    app = await startTestApp({}, { workers: false });
  });
  afterEach(async () => {
    await app.close();
  });

  const card = async (text: string): Promise<TriggerCard> => {
    const c = await loadCard(app.ctx, await send(app.ctx, localMessage(text)));
    if (!c) throw new Error('no card');
    return c;
  };

  it('P-69: report refuses a human_action on a card whose thread the ticket declared unrelated, as reply does, and records nothing', async () => {
    const rt = await createRuntime(app.ctx);
    const opener = await card('Please fix the CSV export');
    const ticket = await createTicket(app.ctx, opener, { why: 'test' });
    const offTopic = await card('who has the projector key?');
    await attachCard(app.ctx, ticket.id, offTopic, 'test');
    await declareUnrelated(app.ctx, ticket.id, threadKeys(offTopic));
    const scope: TurnScope = { rt, ticket, turnId: 'turn-1', batch: new Map([[offTopic.id, offTopic]]) };
    const refusal = `refused: you declared ${offTopic.id}'s thread unrelated (R-C4)`;

    const asked = await reportTool(scope).run(
      { status: 'working', summary: 'Looking.', human_action: { question: 'Which key?', card: offTopic.id } },
      call(1),
    );
    expect(asked).toEqual({ ok: false, error: refusal });
    expect(await lastReport(app.ctx, ticket.id)).toBeUndefined();
    // The same check as reply's.
    const replied = await replyTool(scope).run(
      { to: offTopic.id, text: 'Ask the desk.', purpose: 'answer' },
      call(2),
    );
    expect(replied).toEqual({ ok: false, error: refusal });
    // Where the ticket began is still the place to ask.
    const atHome = await reportTool(scope).run(
      { status: 'working', summary: 'Looking.', human_action: { question: 'Which export?' } },
      call(3),
    );
    expect(atHome).toMatchObject({ ok: true, content: 'recorded working; question posted' });
  });
});
