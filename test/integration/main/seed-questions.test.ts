import { describe, expect, it } from 'vitest';
import { getTicket } from '../../../src/tickets/ticket-store.ts';
import { waitFor } from '../../kit/app.ts';
import { text, toolCalls } from '../../kit/fake-llm.ts';
import { useModelApp } from '../../kit/model-app.ts';
import { cardsIn, continues, inputOf, lastToolResults, roleOf } from '../../kit/scripted-model.ts';
import { botMessages, localMessage, send, ticketOpenedBy } from '../routing/helpers.ts';

/**
 * Seed 004, "通过 human_action 提问" (R-C5): the host asks an executor's question in reply to the
 * person's message that caused it, else in the ticket's original conversation; meanwhile the
 * authorized work goes on.
 */
describe('questions through human_action (R-C5)', () => {
  const w = useModelApp();
  const replies = async (chat: string) =>
    (await botMessages(w.app.ctx, chat)).filter((m) => m.op === 'local.reply');
  const mainScript = (req: Parameters<typeof roleOf>[0]) =>
    continues(req) || !cardsIn(req).length
      ? text('Routed.')
      : toolCalls([
          'orchestrator_route',
          { decisions: cardsIn(req).map((card) => ({ card, action: 'ignore' })) },
        ]);

  it('R-C5: after asking, the work goes on — the same turn sends a result and a later request is acknowledged before any answer', async () => {
    const question = 'Should the export use commas or semicolons as separators?';
    const results: string[][] = [];
    w.llm.respond((req) => {
      if (roleOf(req) === 'main') return mainScript(req);
      const to = cardsIn(req)[0] ?? '';
      const input = inputOf(req);
      if (input.includes('date format')) {
        if (continues(req)) return text('Done for now.');
        return toolCalls(
          ['reply', { to, text: 'On it: the date format too.' }],
          ['report', { status: 'working', summary: 'Date format added to the work.' }],
        );
      }
      if (!continues(req))
        return toolCalls(
          ['reply', { to, text: 'On it: the Excel export.' }],
          [
            'report',
            { status: 'working', summary: 'Needs a separator decision.', human_action: { question } },
          ],
        );
      results.push(lastToolResults(req));
      if (results.length === 1)
        return toolCalls([
          'reply',
          {
            to,
            purpose: 'result',
            text: 'Meanwhile the header row is fixed; the separator waits for your answer.',
          },
        ]);
      return text('Done for now.');
    });
    const request = localMessage('Please fix the export for Excel', { chat: 'asks' });
    const ticket = await ticketOpenedBy(w.app.ctx, await send(w.app.ctx, request));
    const progress = await waitFor(
      async () => (await replies('asks')).find((m) => m.text.startsWith('Meanwhile the header row')),
      'the work after the question',
      20_000,
    );
    expect(results[0]?.[1]).toBe('recorded working; question posted');
    // What the person sees, in order: the acknowledgement, the question, the result — all in
    // reply to their request, with no answer given.
    const seen = (await replies('asks')).map((m) => [m.messageId, m.text]);
    expect(seen).toEqual([
      [request.eventId, 'On it: the Excel export.'],
      [request.eventId, question],
      [request.eventId, progress.text],
    ]);
    // The question leaves the ticket working, not waiting on people.
    expect((await getTicket(w.app.ctx, ticket))?.state).toBe('working');

    // A new request in the ticket's thread, still before any answer, is taken up.
    const ack = (await replies('asks'))[0];
    const more = localMessage('also the date format please', { chat: 'asks', replyTo: ack?.id ?? '' });
    await send(w.app.ctx, more);
    const taken = await waitFor(
      async () => (await replies('asks')).find((m) => m.text === 'On it: the date format too.'),
      'the later request’s acknowledgement',
    );
    expect(taken.messageId).toBe(more.eventId);
    expect((await getTicket(w.app.ctx, ticket))?.state).toBe('working');
  });

  it('R-C5: a question naming a message that is gone is asked in the ticket’s original conversation instead', async () => {
    const question = 'Which European locales matter most?';
    let asked: string[] = [];
    let causeCard = '';
    w.llm.respond((req) => {
      if (roleOf(req) === 'main') return mainScript(req);
      const to = cardsIn(req)[0] ?? '';
      const input = inputOf(req);
      if (continues(req)) {
        if (input.includes('any update')) asked = lastToolResults(req);
        return text('Done for now.');
      }
      if (input.includes('European users')) {
        causeCard = to;
        return toolCalls(
          ['reply', { to, text: 'Noted: European users.' }],
          ['report', { status: 'working', summary: 'Looking at locales.' }],
        );
      }
      if (input.includes('any update'))
        return toolCalls(
          ['reply', { to, purpose: 'answer', text: 'Working on it.' }],
          ['report', { status: 'working', summary: 'Asking.', human_action: { question, card: causeCard } }],
        );
      return toolCalls(
        ['reply', { to, text: 'On it: the export separators.' }],
        ['report', { status: 'working', summary: 'Started.' }],
      );
    });
    const request = localMessage('Please fix the export separators', { chat: 'gone' });
    await send(w.app.ctx, request);
    const ack = await waitFor(
      async () => (await replies('gone')).find((m) => m.text === 'On it: the export separators.'),
      'the acknowledgement',
      20_000,
    );
    const cause = localMessage('it breaks for our European users', { chat: 'gone', replyTo: ack.id });
    await send(w.app.ctx, cause);
    await waitFor(
      async () => (await replies('gone')).some((m) => m.text === 'Noted: European users.'),
      'the cause’s acknowledgement',
    );
    // The message that caused the question is gone: its card expired from the store.
    await w.app.ctx.redis.pexpire(w.app.ctx.keys.card(causeCard), 1);
    await waitFor(async () => !(await w.app.ctx.redis.exists(w.app.ctx.keys.card(causeCard))), 'the expiry');

    await send(w.app.ctx, localMessage('any update?', { chat: 'gone', replyTo: ack.id }));
    const posted = await waitFor(
      async () => (await replies('gone')).find((m) => m.text === question),
      'the question',
    );
    // Asked where the ticket began: in reply to the original request.
    expect(posted.messageId).toBe(request.eventId);
    await waitFor(() => asked.length > 1, 'the report’s answer');
    expect(asked[1]).toBe(
      `recorded working; question posted in the ticket’s original conversation: card ${causeCard} is gone`,
    );
  });
});
