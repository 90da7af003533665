import { describe, expect, it } from 'vitest';
import { waitFor } from '../../kit/app.ts';
import { text } from '../../kit/fake-llm.ts';
import { useModelApp } from '../../kit/model-app.ts';
import { ackAll, cardsIn, openAll, roleOf, scriptedModel } from '../../kit/scripted-model.ts';
import { botMessages, localMessage, routedOf, send, ticketCardIds, ticketOpenedBy } from './helpers.ts';

describe('routing by explicit reference (R-B2)', () => {
  const w = useModelApp();
  const mainRequests = () => w.llm.requests.filter((r) => roleOf(r) === 'main');

  it('R-B2: a follow-up reply to an acknowledgement reaches its executor without the main session routing it', async () => {
    w.llm.respond(scriptedModel({ main: openAll, executor: ackAll }));
    const first = await send(w.app.ctx, localMessage('Please fix the login redirect loop in the web app'));
    const ack = await waitFor(
      async () => (await botMessages(w.app.ctx)).find((m) => m.text.includes(first)),
      'the acknowledgement',
    );
    // Issue 18: the first request is opened by code (nothing it could refer to), so the main
    // session was not asked for it either; the follow-up must not ask it.
    expect(await routedOf(w.app.ctx, first)).toMatchObject({ kind: 'opened' });

    const followUp = await send(
      w.app.ctx,
      localMessage('also keep the ?next= parameter', { replyTo: ack.id }),
    );
    await waitFor(
      async () => (await botMessages(w.app.ctx)).find((m) => m.text.includes(followUp)),
      'the follow-up acknowledgement',
    );
    // Issue 30: its notice may start a main turn of its own, but the main session never routes it.
    expect(mainRequests().filter((r) => cardsIn(r).includes(followUp))).toEqual([]);
    const executorInputs = w.llm.requests
      .filter((r) => roleOf(r) === 'executor')
      .map((r) => JSON.stringify(r.messages));
    expect(executorInputs.some((m) => m.includes(followUp))).toBe(true);
    const ticket = await ticketOpenedBy(w.app.ctx, first);
    expect(await routedOf(w.app.ctx, followUp)).toEqual({ kind: 'attached', tickets: [ticket] });
  });

  it('R-B2: a same-topic message in the same chat without a reference goes to the main session', async () => {
    // This test opens its own ticket, so "the ticket lacks the card" is checked against a real
    // ticket whether the file runs alone, shuffled or in order (issue 20).
    let sawIt = false;
    w.llm.respond(
      scriptedModel({
        main: (req) => {
          if (!JSON.stringify(req.messages).includes('also on staging')) return openAll(req);
          sawIt = true;
          return text('Leaving it.');
        },
        executor: ackAll,
      }),
    );
    const opening = await send(w.app.ctx, localMessage('Please fix the login redirect loop on checkout'));
    const ticket = await ticketOpenedBy(w.app.ctx, opening);
    await waitFor(
      async () => (await botMessages(w.app.ctx)).find((m) => m.text.includes(opening)),
      'the acknowledgement',
    );
    const card = await send(
      w.app.ctx,
      localMessage('the login redirect loop is also on staging', { request: false }),
    );
    await waitFor(() => sawIt, 'the main session to see the candidate');
    expect(await routedOf(w.app.ctx, card)).toEqual({ kind: 'candidate' });
    const cards = await ticketCardIds(w.app.ctx, ticket);
    expect(cards).toContain(opening);
    expect(cards).not.toContain(card);
  });
});
