import { describe, expect, it } from 'vitest';
import { listTickets } from '../../../src/tickets/ticket-store.ts';
import { useModelApp } from '../../kit/model-app.ts';
import { ackAll, openAll, scriptedModel } from '../../kit/scripted-model.ts';
import { localMessage, send, ticketCardIds, ticketOpenedBy } from './helpers.ts';

/**
 * Issue 20: each test has its own key prefix, so two tests of one file that each open a ticket
 * each see only their own — in either order, shuffled or alone. With one app (one prefix) per
 * file, whichever test ran second would list the first one's ticket too.
 */
describe('each test sees only its own tickets (issue 20)', () => {
  const w = useModelApp();
  const prefixes: string[] = [];

  async function opensAndSeesOnlyItsOwn(text: string) {
    prefixes.push(w.app.ctx.keys.prefix);
    expect(new Set(prefixes).size).toBe(prefixes.length);
    w.llm.respond(scriptedModel({ main: openAll, executor: ackAll }));
    const card = await send(w.app.ctx, localMessage(text));
    const ticket = await ticketOpenedBy(w.app.ctx, card);
    const tickets = await listTickets(w.app.ctx);
    expect(tickets.map((t) => [t.id, t.openedBy])).toEqual([[ticket, card]]);
    expect(await ticketCardIds(w.app.ctx, ticket)).toEqual([card]);
  }

  it('issue 20: a test that opens a ticket lists that ticket alone', async () => {
    await opensAndSeesOnlyItsOwn('Please rename the billing module');
  });

  it('issue 20: another test of the same file that opens a ticket lists that ticket alone too', async () => {
    await opensAndSeesOnlyItsOwn('Please add a health check endpoint');
  });
});
