import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../kit/app.ts';
import { type RecordedRequest, text, toolCalls } from '../../kit/fake-llm.ts';
import { cardsIn, isHostNote, lastToolResults, roleOf, ticketOf } from '../../kit/scripted-model.ts';
import { localMessage, openTicketIn, send } from '../routing/helpers.ts';
import { type ArtifactWorld, startArtifactWorld } from './harness.ts';

const PAIR = { 'crews/pair.crew.md': '---\nname: pair\nrole: worker\ntopology: mesh\n---\n' };

/**
 * Issue 45: `peersOf` took every open ticket of the crew, in any repository or chat, so one
 * repository's executor could hand facts (a private one's) to another's ticket and wake it.
 */
describe('issue 45: a mesh crew’s peers share the ticket’s repository or chat', () => {
  let w: ArtifactWorld;
  const byTicket = new Map<string, RecordedRequest[]>();
  let executor: (req: RecordedRequest, ticket: string, n: number) => ReturnType<typeof text>;

  beforeEach(async () => {
    byTicket.clear();
    w = await startArtifactWorld(PAIR);
    // Issue 18: with a ticket open in each chat, requests there go to the main session (the crew).
    await openTicketIn(w.app.ctx, 'room');
    await openTicketIn(w.app.ctx, 'lab');
    w.llm.respond((req) => {
      if (roleOf(req) === 'main') {
        if (req.messages.at(-1)?.role === 'tool') return text('Routed.');
        const decisions = cardsIn(req).map((card) => ({ card, action: 'open', crew: 'pair' }));
        return toolCalls(['orchestrator_route', { decisions }]);
      }
      if (isHostNote(req.messages.at(-1))) return text('Noted.');
      const ticket = ticketOf(req) ?? '?';
      const list = byTicket.get(ticket) ?? [];
      list.push(req);
      byTicket.set(ticket, list);
      return executor(req, ticket, list.length);
    });
  });
  afterEach(async () => w.close());

  const ack = (req: RecordedRequest) =>
    ['reply', { to: cardsIn(req)[0], text: `Looking at ${cardsIn(req)[0]} now.` }] as [string, unknown];

  it('issue 45: an executor of the crew in another chat is no peer: message_peer is refused and wakes nothing', async () => {
    let first = '';
    let results: string[] | undefined;
    executor = (req, ticket, n) => {
      if (n === 1 && !first) first = ticket;
      if (n === 1 && ticket === first) return toolCalls(ack(req));
      if (n === 1)
        return toolCalls(
          ack(req),
          ['message_peer', { ticket: first, text: 'The salary table is in payroll.csv.' }],
          ['message_peer', { text: 'The salary table is in payroll.csv.' }],
        );
      if (ticket !== first && n === 2) results = lastToolResults(req);
      return text('Done.');
    };
    await send(w.app.ctx, localMessage('Please rename the login helper', { chat: 'room' }));
    await waitFor(() => first && (byTicket.get(first)?.length ?? 0) >= 2, 'the ticket in room');
    await waitFor(
      async () => !(await w.app.ctx.redis.exists(w.app.ctx.keys.turnLock(first))),
      'its turn end',
    );
    await send(w.app.ctx, localMessage('Please export the salaries', { chat: 'lab' }));
    const [, named, all] = await waitFor(() => results, 'the message_peer results');
    expect(named).toBe(`Error: ${first} is not an open ticket of your crew in this repository or chat`);
    expect(all).toBe('Error: no other open ticket of this repository or chat runs your crew');
    await new Promise((r) => setTimeout(r, 500));
    expect(byTicket.get(first)).toHaveLength(2);
  });
});
