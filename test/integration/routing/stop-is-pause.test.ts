import { describe, expect, it } from 'vitest';
import { getPause, isPaused } from '../../../src/tickets/pause.ts';
import { getTicket } from '../../../src/tickets/ticket-store.ts';
import { waitFor } from '../../kit/app.ts';
import { type RecordedRequest, text, toolCalls } from '../../kit/fake-llm.ts';
import { useModelApp } from '../../kit/model-app.ts';
import {
  ackAll,
  cardsIn,
  continues,
  inputOf,
  lastToolResults,
  openAll,
  roleOf,
} from '../../kit/scripted-model.ts';
import { botMessages, localMessage, send, ticketOpenedBy } from './helpers.ts';

/** The card of the first follow-up notice a main turn is shown, as its notice line names it. */
const noticeCard = (req: RecordedRequest): string =>
  /Follow-up notices \([\s\S]*?\(card ([^)\s]+)\)/.exec(inputOf(req))?.[1] ?? 'none';

describe('stopping is not closing (R-B6, issue 30)', () => {
  const w = useModelApp();

  it('R-B6: orchestrator_stop names the notice’s card, pauses the ticket with its reason and keeps its state; a person’s /resume lets it go on as it was', async () => {
    const stopResults: string[][] = [];
    w.llm.respond((req: RecordedRequest) => {
      if (roleOf(req) === 'executor') return continues(req) ? text('ok') : ackAll(req);
      if (req.messages.at(-1)?.role === 'tool') {
        stopResults.push(lastToolResults(req));
        return text('done');
      }
      if (!inputOf(req).includes('Follow-up notices (')) return openAll(req);
      const decisions = cardsIn(req).map((card) => ({ card, action: 'ignore' }));
      return toolCalls(
        ['orchestrator_stop', { card: 'lm-never-shown', reason: 'Not shown to me.' }],
        ['orchestrator_stop', { card: noticeCard(req), reason: 'The requester withdrew the request.' }],
        ...(decisions.length ? [['orchestrator_route', { decisions }] as [string, unknown]] : []),
      );
    });
    const first = await send(w.app.ctx, localMessage('Please rename the billing module'));
    const ticket = await ticketOpenedBy(w.app.ctx, first);
    const ack = await waitFor(
      async () =>
        (await botMessages(w.app.ctx)).find((m) => m.op === 'local.reply' && m.text.includes(first)),
      'the acknowledgement',
    );
    const was = (await getTicket(w.app.ctx, ticket))?.state;
    expect(['open', 'working', 'waiting']).toContain(was);

    const cancel = await send(w.app.ctx, localMessage('never mind, stop this please', { replyTo: ack.id }));
    // A candidate elsewhere carries the notice into a main turn if it has not started one itself.
    await send(w.app.ctx, localMessage('what is the weather like?', { request: false }));
    await waitFor(() => stopResults.length, 'the main turn with the notice');

    expect(stopResults[0]?.[0]).toBe(
      'Error: refused: card lm-never-shown is not a follow-up notice of this turn; the main session may stop work only because of one, named by its card (R-B6)',
    );
    expect(stopResults[0]?.[1]).toBe(
      `stopped ${ticket}: paused, not closed; a person’s /resume lets the work go on`,
    );
    expect(await getPause(w.app.ctx, ticket)).toMatchObject({
      by: 'main session',
      via: 'main',
      cardId: cancel,
      reason: 'The requester withdrew the request.',
    });
    // Not closed: the ticket keeps what it was doing, and retention does not start.
    expect((await getTicket(w.app.ctx, ticket))?.state).toBe(was);
    await waitFor(
      async () =>
        (await botMessages(w.app.ctx)).some((m) => m.op === 'local.status' && m.text.includes('Paused')),
      'the status message showing the pause',
    );

    const resume = await send(w.app.ctx, localMessage('/resume', { replyTo: ack.id }));
    await waitFor(
      async () =>
        (await botMessages(w.app.ctx)).find(
          (m) => m.op === 'local.reply' && m.messageId !== undefined && m.text === `Resumed ${ticket}.`,
        ),
      `the confirmation of ${resume}`,
    );
    expect(await isPaused(w.app.ctx, ticket)).toBe(false);
    expect((await getTicket(w.app.ctx, ticket))?.state).toBe(was);
  });
});
