import { describe, expect, it } from 'vitest';
import { getPause } from '../../../src/tickets/pause.ts';
import { getTicket } from '../../../src/tickets/ticket-store.ts';
import { waitFor } from '../../kit/app.ts';
import { type RecordedRequest, text, toolCalls } from '../../kit/fake-llm.ts';
import { useModelApp } from '../../kit/model-app.ts';
import { ackAll, cardsIn, continues, lastToolResults, openAll, roleOf } from '../../kit/scripted-model.ts';
import { botMessages, localMessage, send, ticketOpenedBy } from './helpers.ts';

/** The turn's input: the user message, not the system prompt (which may mention notices itself). */
const inputOf = (r: RecordedRequest) => r.messages.find((m) => m.role === 'user')?.content ?? '';

describe('follow-up notices (R-B6)', () => {
  const w = useModelApp();
  const mains = () => w.llm.requests.filter((r) => roleOf(r) === 'main');

  it('R-B6: the main session sees follow-ups with its next turn and may only stop a ticket because of one', async () => {
    let stopResults: string[] = [];
    let ticket = '';
    w.llm.respond((req: RecordedRequest) => {
      if (roleOf(req) === 'executor') return continues(req) ? text('ok') : ackAll(req);
      if (req.messages.at(-1)?.role === 'tool') {
        stopResults = lastToolResults(req);
        return text('done');
      }
      if (!inputOf(req).includes('Follow-up notices (')) return openAll(req);
      return toolCalls(
        ['orchestrator_stop', { ticket: 'T9', reason: 'Not shown to me.' }],
        ['orchestrator_stop', { ticket, reason: 'The requester withdrew the request.' }],
        ['orchestrator_route', { decisions: cardsIn(req).map((card) => ({ card, action: 'ignore' })) }],
      );
    });
    const first = await send(w.app.ctx, localMessage('Please rename the billing module'));
    ticket = await ticketOpenedBy(w.app.ctx, first);
    const ack = await waitFor(
      async () => (await botMessages(w.app.ctx)).find((m) => m.text.includes(first)),
      'the acknowledgement',
    );
    const before = mains().length;
    const followUp = await send(
      w.app.ctx,
      localMessage('never mind, cancel this please', { replyTo: ack.id }),
    );
    await waitFor(
      async () => (await botMessages(w.app.ctx)).find((m) => m.text.includes(followUp)),
      'the follow-up to reach the ticket',
    );
    expect(mains().length).toBe(before);

    await send(w.app.ctx, localMessage('what is the weather like?', { request: false }));
    await waitFor(() => stopResults.length === 3, 'the main turn with the notice');
    const withNotice = mains().find((r) => inputOf(r).includes('Follow-up notices ('));
    expect(inputOf(withNotice as RecordedRequest)).toContain(
      `- ${ticket} ← ada: never mind, cancel this please`,
    );
    expect(stopResults[0]).toMatch(/^Error: refused: no follow-up notice about T9.*R-B6/);
    expect(stopResults[1]).toBe(`stopped ${ticket}`);
    expect(await getPause(w.app.ctx, ticket)).toMatchObject({ by: 'main session', via: 'main' });
    expect((await getTicket(w.app.ctx, ticket))?.state).toBe('cancelled');
  });
});
