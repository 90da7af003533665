import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { getTicket } from '../../../src/tickets/ticket-store.ts';
import { waitFor } from '../../kit/app.ts';
import { type RecordedRequest, text, toolCalls } from '../../kit/fake-llm.ts';
import { useModelApp } from '../../kit/model-app.ts';
import { cardsIn, continues, inputOf, lastToolResults, roleOf } from '../../kit/scripted-model.ts';
import { botMessages, localMessage, routedOf, send, ticketOpenedBy } from '../routing/helpers.ts';

/**
 * Seed 004, "准入指令…orchestrator_eval 返回上下文，而不是重复这些指令" (R-B4): the main session
 * evaluates a candidate with `orchestrator_eval`, which answers the candidate's routing context —
 * owners, hand-back reasons, the tickets its references match, open tickets in its conversation —
 * and never the admission instructions.
 */
describe('orchestrator_eval (R-B4)', () => {
  const w = useModelApp();
  const CHAT = 'eval';
  const replies = async () => (await botMessages(w.app.ctx, CHAT)).filter((m) => m.op === 'local.reply');
  /** What orchestrator_eval answered, by the card it was asked about. */
  const evals = new Map<string, string>();

  /**
   * The main session evaluates every candidate (and a card that is none), then ignores them all.
   * The executor acknowledges its requests and hands back anything about the changelog.
   */
  function script() {
    evals.clear();
    w.llm.respond((req: RecordedRequest) => {
      if (roleOf(req) === 'main') {
        const cards = cardsIn(req);
        if (!continues(req))
          return cards.length
            ? toolCalls(...cards.map((card) => ['orchestrator_eval', { card }] as [string, unknown]), [
                'orchestrator_eval',
                { card: 'not-a-candidate' },
              ])
            : text('Nothing to route.');
        const results = lastToolResults(req);
        if (results.length !== cards.length + 1) return text('Routed.');
        for (const [i, card] of cards.entries()) evals.set(card, results[i] ?? '');
        evals.set('not-a-candidate', results.at(-1) ?? '');
        return toolCalls([
          'orchestrator_route',
          { decisions: cards.map((card) => ({ card, action: 'ignore' })) },
        ]);
      }
      if (continues(req)) return text('Done for now.');
      const to = cardsIn(req)[0] ?? '';
      if (inputOf(req).includes('changelog'))
        return toolCalls(['handback', { card: to, reason: 'The changelog is not the billing export.' }]);
      return toolCalls(['reply', { to, text: 'On it: the billing export totals.' }]);
    });
  }

  async function billingTicket(): Promise<{ ticket: string; ackId: string }> {
    const request = await send(
      w.app.ctx,
      localMessage('Please fix the billing export totals', { chat: CHAT }),
    );
    const ticket = await ticketOpenedBy(w.app.ctx, request);
    const ack = await waitFor(
      async () => (await replies()).find((m) => m.text === 'On it: the billing export totals.'),
      'the acknowledgement',
      20_000,
    );
    return { ticket, ackId: ack.id };
  }

  it('R-B4: for a message with no reference it answers the open tickets of its conversation — context, not the admission rules', async () => {
    script();
    const { ticket } = await billingTicket();
    const title = (await getTicket(w.app.ctx, ticket))?.title;
    const candidate = await send(
      w.app.ctx,
      localMessage('the billing numbers look odd on staging', { chat: CHAT, request: false }),
    );
    // A message in another chat: no ticket is open there.
    const elsewhere = await send(
      w.app.ctx,
      localMessage('the billing numbers look odd here too', { chat: 'eval-other', request: false }),
    );
    await waitFor(() => evals.has(candidate) && evals.has(elsewhere), 'the main session to evaluate both');
    const state = JSON.parse(evals.get(candidate) ?? '{}').open_tickets_in_conversation?.[0]?.state;
    expect(JSON.parse(evals.get(candidate) ?? '')).toEqual({
      card: candidate,
      owners: [],
      handback_reasons: {},
      reference_matches: {},
      open_tickets_in_conversation: [{ id: ticket, title, state }],
    });
    expect(['open', 'working']).toContain(state);
    expect(JSON.parse(evals.get(elsewhere) ?? '')).toMatchObject({
      card: elsewhere,
      open_tickets_in_conversation: [],
    });
    expect(evals.get('not-a-candidate')).toBe(
      'Error: card not-a-candidate is not a waiting candidate of this turn',
    );
    // Context only: no sentence of the admission instructions comes back.
    const admission = readFileSync(new URL('../../../prompts/admission.md', import.meta.url), 'utf8');
    for (const line of admission.split('\n').filter((l) => l.trim().length > 20))
      expect(evals.get(candidate)).not.toContain(line.replace(/^- /, '').slice(0, 40));
    // Ignored: nobody sees anything, and no ticket was opened for it.
    expect(await routedOf(w.app.ctx, candidate)).toEqual({ kind: 'candidate' });
    expect((await replies()).map((m) => m.text)).toEqual(['On it: the billing export totals.']);
  });

  it('R-B4, R-C3: for a message its owner handed back it answers the owner, the reason and the reference that matched', async () => {
    script();
    const { ticket, ackId } = await billingTicket();
    const handedBack = localMessage('can someone update the changelog?', { chat: CHAT, replyTo: ackId });
    const card = await send(w.app.ctx, handedBack);
    await waitFor(() => evals.has(card), 'the main session to evaluate the handed-back message');
    expect(JSON.parse(evals.get(card) ?? '')).toMatchObject({
      card,
      owners: [ticket],
      handback_reasons: { [ticket]: 'The changelog is not the billing export.' },
      reference_matches: { [ticket]: `msg:${ackId}` },
    });
    // What the person sees: no answer from the bot to the handed-back message.
    expect((await replies()).some((m) => m.messageId === handedBack.eventId)).toBe(false);
  });
});
