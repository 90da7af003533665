import { describe, expect, it } from 'vitest';
import { getTicket } from '../../../src/tickets/ticket-store.ts';
import { waitFor } from '../../kit/app.ts';
import { text, toolCalls } from '../../kit/fake-llm.ts';
import { useModelApp } from '../../kit/model-app.ts';
import { ackAll, cardsIn, continues, lastToolResults, roleOf } from '../../kit/scripted-model.ts';
import { botMessages, localMessage, send, ticketOpenedBy } from './helpers.ts';

describe('ticket ids in tools (issue 31)', () => {
  const w = useModelApp();

  it('issue 31: a ticket or card id naming another record (T1:cards, C1:full) is a clear tool error, never a write or a crash', async () => {
    let results: string[] = [];
    let ticket = '';
    let first = '';
    w.llm.respond((req) => {
      if (roleOf(req) === 'executor') return continues(req) ? text('ok') : ackAll(req);
      if (req.messages.at(-1)?.role === 'tool') {
        results = lastToolResults(req);
        return text('done');
      }
      return toolCalls(
        ['orchestrator_note', { ticket: `${ticket}:cards`, text: 'facts' }],
        ['orchestrator_read', { what: 'ticket', id: `${ticket}:cards` }],
        ['orchestrator_stop', { card: `${ticket}:cards`, reason: 'withdrawn' }],
        ['orchestrator_read', { what: 'card', id: `${first}:full` }],
        ['orchestrator_route', { decisions: cardsIn(req).map((card) => ({ card, action: 'ignore' })) }],
      );
    });
    // Long enough to be cut: its whole text is kept under `${card}:full`.
    first = await send(w.app.ctx, localMessage(`Please document parseConfig. ${'Details. '.repeat(600)}`));
    ticket = await ticketOpenedBy(w.app.ctx, first);
    await waitFor(
      async () => (await botMessages(w.app.ctx)).find((m) => m.text.includes(first)),
      'the ticket to start',
    );
    await send(w.app.ctx, localMessage('fyi parseConfig was renamed', { request: false }));
    await waitFor(() => results.length === 5, 'the tool results');
    expect(results[0]).toMatch(/^Error: invalid arguments for orchestrator_note[\s\S]*a ticket id is T/);
    expect(results[1]).toMatch(/^Error: .*is not a ticket id/);
    expect(results[2]).toMatch(/^Error: refused: card T\d+:cards is not a follow-up notice of this turn/);
    expect(results[3]).toMatch(/^Error: no card /);
    // The ticket itself still reads.
    expect((await getTicket(w.app.ctx, ticket))?.state).toBeDefined();
    expect(await getTicket(w.app.ctx, `${ticket}:cards`)).toBeUndefined();
  });
});
