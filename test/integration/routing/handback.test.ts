import { describe, expect, it } from 'vitest';
import { loadCard } from '../../../src/cards/ingest.ts';
import { handbackReasons, wasTakenBy } from '../../../src/tickets/handback.ts';
import { addTicketRefs, createTicket } from '../../../src/tickets/ticket-store.ts';
import { waitFor } from '../../kit/app.ts';
import { type RecordedRequest, text, toolCalls } from '../../kit/fake-llm.ts';
import { useModelApp } from '../../kit/model-app.ts';
import { cardsIn, continues, roleOf } from '../../kit/scripted-model.ts';
import { localMessage, send } from './helpers.ts';

/** Two tickets subscribed to one thread: a card in it is owned by both (R-C3). */
describe('hand-back (R-C3)', () => {
  const w = useModelApp();

  async function twoTicketsOnThread(thread: string) {
    const ids: string[] = [];
    for (const title of ['billing export', 'login page']) {
      const card = (await loadCard(
        w.app.ctx,
        await send(w.app.ctx, localMessage(`seed ${title} ${thread}`, { request: false })),
      ))!;
      const t = await createTicket(w.app.ctx, card, { why: 'test', title });
      await w.app.ctx.redis.del(w.app.ctx.keys.ticketInbox(t.id));
      await addTicketRefs(w.app.ctx, t.id, [`msg:${thread}`]);
      ids.push(t.id);
    }
    return ids as [string, string];
  }

  /** Which ticket an executor request belongs to, from its environment section. */
  const ticketOf = (r: RecordedRequest) => /ticket: (T\d+)/.exec(r.system ?? '')?.[1];
  const systemHas = (t: string) => (r: RecordedRequest) => ticketOf(r) === t;

  it('R-C3: handed back by one owner and taken by the other, a card does not become a candidate', async () => {
    const [a, b] = await twoTicketsOnThread('thread-1');
    w.llm.respond((req) => {
      if (roleOf(req) === 'main') return text('nothing');
      if (continues(req)) return text('ok');
      const card = cardsIn(req)[0] ?? '';
      return systemHas(a)(req)
        ? toolCalls(['handback', { card, reason: 'This is about the login page, not billing.' }])
        : toolCalls(['reply', { to: card, text: 'On it: the login page spacing.' }]);
    });
    const card = await send(w.app.ctx, localMessage('the spacing looks off', { replyTo: 'thread-1' }));
    await waitFor(() => wasTakenBy(w.app.ctx, card, b), 'b to take it');
    await waitFor(async () => (await handbackReasons(w.app.ctx, card))[a] !== undefined, 'a to hand it back');
    await new Promise((r) => setTimeout(r, 300));
    expect(await w.app.ctx.redis.zscore(w.app.ctx.keys.candidates(), card)).toBeNull();
    // Issue 30: the follow-up's notice may start a main turn, but the card is never a candidate there.
    expect(w.llm.requests.filter((r) => roleOf(r) === 'main' && cardsIn(r).includes(card))).toHaveLength(0);
  });

  it('R-C3: handed back by both owners, a card reaches the main session with both reasons', async () => {
    const [a, b] = await twoTicketsOnThread('thread-2');
    const mains: RecordedRequest[] = [];
    w.llm.respond((req) => {
      if (roleOf(req) === 'main') {
        mains.push(req);
        return text('noted');
      }
      if (continues(req)) return text('ok');
      const card = cardsIn(req)[0] ?? '';
      const reason = systemHas(a)(req) ? 'Reason A: not billing.' : 'Reason B: not the login page.';
      return toolCalls(['handback', { card, reason }]);
    });
    const card = await send(
      w.app.ctx,
      localMessage('can someone update the changelog?', { replyTo: 'thread-2' }),
    );
    const seen = await waitFor(() => mains.find((r) => cardsIn(r).includes(card)), 'the main session');
    const input = JSON.stringify(seen.messages);
    expect(input).toContain(`handed back by ${a}: Reason A: not billing.`);
    expect(input).toContain(`handed back by ${b}: Reason B: not the login page.`);
  });
});
