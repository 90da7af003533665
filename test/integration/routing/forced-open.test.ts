import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FORCED_REASON } from '../../../src/router/open-forced.ts';
import { routeCard } from '../../../src/router/route-card.ts';
import { listTickets, setTicketState, ticketAttachments } from '../../../src/tickets/ticket-store.ts';
import { waitFor } from '../../kit/app.ts';
import { type RecordedRequest, text } from '../../kit/fake-llm.ts';
import { useModelApp } from '../../kit/model-app.ts';
import { ackAll, cardsIn, openAll, roleOf, scriptedModel } from '../../kit/scripted-model.ts';
import { botMessages, localMessage, openTicketIn, routedOf, send, ticketOpenedBy } from './helpers.ts';

/** The turn's input: the user message, not the system prompt. */
const inputOf = (r: RecordedRequest) => r.messages.find((m) => m.role === 'user')?.content ?? '';

describe('issue 18: an explicit request no ticket could be meant for is opened by code (R-B8, R-B2)', () => {
  const w = useModelApp();
  const mains = () => w.llm.requests.filter((r) => roleOf(r) === 'main');
  const mainsWith = (cardId: string) => mains().filter((r) => cardsIn(r).includes(cardId));
  const chat = () => `forced-${randomUUID().slice(0, 8)}`;
  const ackOf = (room: string, cardId: string) =>
    waitFor(
      async () =>
        (await botMessages(w.app.ctx, room)).find((m) => m.op === 'local.reply' && m.text.includes(cardId)),
      `the acknowledgement of ${cardId}`,
    );

  it('opens the ticket with no main-session request before the acknowledgement, recording why', async () => {
    w.llm.respond(scriptedModel({ main: openAll, executor: ackAll }));
    const room = chat();
    const card = await send(w.app.ctx, localMessage('please rename the billing module', { chat: room }));
    await ackOf(room, card);
    expect(mainsWith(card)).toHaveLength(0);
    const ticket = await ticketOpenedBy(w.app.ctx, card);
    expect(await routedOf(w.app.ctx, card)).toEqual({ kind: 'opened', ticket, reason: FORCED_REASON });
    expect((await ticketAttachments(w.app.ctx, ticket))[0]).toMatchObject({
      cardId: card,
      why: FORCED_REASON,
    });
  });

  it('the main session learns of it with its next turn; the news alone starts no main turn', async () => {
    w.llm.respond(scriptedModel({ main: openAll, executor: ackAll }));
    const room = chat();
    const card = await send(w.app.ctx, localMessage('please add a dark mode to the panel', { chat: room }));
    await ackOf(room, card);
    const ticket = await ticketOpenedBy(w.app.ctx, card);
    await new Promise((r) => setTimeout(r, 600));
    expect(mains().filter((r) => inputOf(r).includes(`- ${ticket} ←`))).toHaveLength(0);
    // A candidate somewhere else: its turn carries the news.
    const other = await send(w.app.ctx, localMessage('what a nice day', { chat: chat(), request: false }));
    const turn = await waitFor(() => mainsWith(other)[0], 'the next main turn');
    expect(inputOf(turn)).toContain('Tickets opened by code since your last turn');
    expect(inputOf(turn)).toContain(`- ${ticket} ← ada (card ${card}): please add a dark mode to the panel`);
  });

  it('R-B2: a message with an explicit reference to a ticket still attaches to it, by code', async () => {
    w.llm.respond(scriptedModel({ main: openAll, executor: ackAll }));
    const room = chat();
    const card = await send(w.app.ctx, localMessage('please bump the lockfile', { chat: room }));
    const ack = await ackOf(room, card);
    const ticket = await ticketOpenedBy(w.app.ctx, card);
    const reply = await send(
      w.app.ctx,
      localMessage('also the docs lockfile', { chat: room, replyTo: ack.id }),
    );
    await waitFor(async () => (await routedOf(w.app.ctx, reply))?.kind === 'attached', 'the reply routed');
    expect(await routedOf(w.app.ctx, reply)).toEqual({ kind: 'attached', tickets: [ticket] });
    expect(mainsWith(reply)).toHaveLength(0);
  });

  it('an unreferenced request in a conversation with an open ticket still goes to the main session', async () => {
    w.llm.respond(scriptedModel({ main: openAll, executor: ackAll }));
    const room = chat();
    await openTicketIn(w.app.ctx, room);
    const card = await send(w.app.ctx, localMessage('and fix the login page too', { chat: room }));
    await waitFor(() => mainsWith(card)[0], 'the main session asked');
    expect(await routedOf(w.app.ctx, card)).toEqual({ kind: 'candidate' });
  });

  it('a closed ticket in the conversation does not stop the forced opening', async () => {
    w.llm.respond(scriptedModel({ main: openAll, executor: ackAll }));
    const room = chat();
    await setTicketState(w.app.ctx, await openTicketIn(w.app.ctx, room), 'done');
    const card = await send(w.app.ctx, localMessage('please rotate the staging keys', { chat: room }));
    await waitFor(async () => (await routedOf(w.app.ctx, card))?.kind === 'opened', 'opened by code');
    expect(mainsWith(card)).toHaveLength(0);
  });

  it('R-B1: a burst in a conversation with an open ticket is still decided in one main-session call', async () => {
    w.llm.respond(scriptedModel({ main: openAll, executor: ackAll }));
    const room = chat();
    await openTicketIn(w.app.ctx, room);
    const ids = await Promise.all(
      [1, 2, 3, 4].map((i) => send(w.app.ctx, localMessage(`task ${i}: rename module ${i}`, { chat: room }))),
    );
    await waitFor(() => ids.every((id) => mainsWith(id).length), 'the main turn');
    const first = mainsWith(ids[0] as string)[0] as RecordedRequest;
    expect(cardsIn(first).sort()).toEqual([...ids].sort());
  });

  it('two requests arriving together in a free conversation open one ticket by code; the other goes to the main session', async () => {
    w.llm.respond(scriptedModel({ main: openAll, executor: ackAll }));
    const room = chat();
    const ids = await Promise.all(
      ['please fix the flaky upload test', 'please fix the flaky download test'].map((t) =>
        send(w.app.ctx, localMessage(t, { chat: room })),
      ),
    );
    const outcomes = await waitFor(async () => {
      const o = await Promise.all(ids.map((id) => routedOf(w.app.ctx, id)));
      return o.every(Boolean) ? o : undefined;
    }, 'both routed');
    expect(outcomes.map((o) => o?.kind).sort()).toEqual(['candidate', 'opened']);
  });

  it('a routing job retried after the ticket was opened (a crash before its outcome was saved) opens nothing more', async () => {
    w.llm.respond(scriptedModel({ main: openAll, executor: () => text('Nothing to do.') }));
    const room = chat();
    const card = await send(w.app.ctx, localMessage('please upgrade the runtime', { chat: room }));
    const first = await waitFor(
      async () => (await routedOf(w.app.ctx, card))?.kind === 'opened' && routedOf(w.app.ctx, card),
      'opened',
    );
    await w.app.ctx.redis.del(w.app.ctx.keys.cardRouted(card));
    expect(await routeCard(w.app.ctx, card)).toEqual(first);
    const opened = (await listTickets(w.app.ctx, 1000)).filter((t) => t.openedBy === card);
    expect(opened.map((t) => t.id)).toEqual([(first as { ticket: string }).ticket]);
    expect(mainsWith(card)).toHaveLength(0);
  });

  it('R-B2: a request whose text names a ticket id goes to the main session, which may attach it by that', async () => {
    w.llm.respond(scriptedModel({ main: openAll, executor: ackAll }));
    const room = chat();
    const card = await send(w.app.ctx, localMessage('please look at T4 again, it broke', { chat: room }));
    await waitFor(() => mainsWith(card)[0], 'the main session asked');
    expect(await routedOf(w.app.ctx, card)).toEqual({ kind: 'candidate' });
  });
});
