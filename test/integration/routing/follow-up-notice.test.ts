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

/** The card of the first follow-up notice, as its notice line names it. */
const noticeCard = (r: RecordedRequest): string =>
  /Follow-up notices \([\s\S]*?\(card ([^)\s]+)\)/.exec(inputOf(r))?.[1] ?? 'none';

describe('follow-up notices (R-B6)', () => {
  const w = useModelApp();
  const mains = () => w.llm.requests.filter((r) => roleOf(r) === 'main');

  it('R-B6, issue 30: a steering “cancel” in a quiet chat starts a main turn by itself, which may only stop a ticket because of a notice', async () => {
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
        ['orchestrator_stop', { card: 'lm-not-shown', reason: 'Not shown to me.' }],
        ['orchestrator_stop', { card: noticeCard(req), reason: 'The requester withdrew the request.' }],
        ['orchestrator_route', { decisions: cardsIn(req).map((card) => ({ card, action: 'ignore' })) }],
      );
    });
    const first = await send(w.app.ctx, localMessage('Please rename the billing module'));
    ticket = await ticketOpenedBy(w.app.ctx, first);
    const ack = await waitFor(
      async () => (await botMessages(w.app.ctx)).find((m) => m.text.includes(first)),
      'the acknowledgement',
    );
    const turnsBefore = mains().filter((r) => !continues(r)).length;
    await send(w.app.ctx, localMessage('never mind, cancel this please', { replyTo: ack.id }));
    // No other message arrives: the notice itself starts the main turn that acts on it.
    await waitFor(() => stopResults.length === 3, 'the main turn with the notice');
    expect(mains().filter((r) => !continues(r)).length).toBe(turnsBefore + 1);
    const withNotice = mains().find((r) => inputOf(r).includes('Follow-up notices ('));
    expect(inputOf(withNotice as RecordedRequest)).toMatch(/^No candidate waits\./);
    expect(inputOf(withNotice as RecordedRequest)).toMatch(
      new RegExp(`- ${ticket} ← ada \\(card [^)]+\\): never mind, cancel this please`),
    );
    expect(stopResults[0]).toMatch(/^Error: refused: card lm-not-shown is not a follow-up notice.*R-B6/);
    expect(stopResults[1]).toBe(
      `stopped ${ticket}: paused, not closed; a person’s /resume lets the work go on`,
    );
    expect(await getPause(w.app.ctx, ticket)).toMatchObject({ by: 'main session', via: 'main' });
    expect((await getTicket(w.app.ctx, ticket))?.state).not.toBe('cancelled');
  });

  it('issue 30: an executor’s report reaches the main session by itself, with no other message', async () => {
    let ticket = '';
    w.llm.respond((req: RecordedRequest) => {
      if (roleOf(req) === 'executor') {
        if (!continues(req)) return ackAll(req);
        if (lastToolResults(req).some((t) => t.startsWith('recorded'))) return text('Done.');
        return toolCalls([
          'report',
          { status: 'done', summary: 'Renamed billing to invoicing; tests pass.' },
        ]);
      }
      return continues(req) ? text('Noted.') : openAll(req);
    });
    const first = await send(w.app.ctx, localMessage('Please rename the billing module'));
    ticket = await ticketOpenedBy(w.app.ctx, first);
    const withReport = await waitFor(
      () => mains().find((r) => !continues(r) && inputOf(r).includes('Reports from executors')),
      'the main turn the report started',
    );
    expect(inputOf(withReport)).toMatch(/^No candidate waits\./);
    expect(inputOf(withReport)).toContain(`- ${ticket} done: Renamed billing to invoicing; tests pass.`);
    // Its only input is the news: no candidate and nothing else arrived.
    expect(cardsIn(withReport)).toEqual([]);
  });
});
