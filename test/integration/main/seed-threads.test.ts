import { describe, expect, it } from 'vitest';
import type { CardDraft } from '../../../src/cards/card.ts';
import { waitFor } from '../../kit/app.ts';
import { type RecordedRequest, text, toolCalls } from '../../kit/fake-llm.ts';
import { useModelApp } from '../../kit/model-app.ts';
import { cardsIn, continues, inputOf, lastToolResults, roleOf } from '../../kit/scripted-model.ts';
import {
  botMessages,
  localMessage,
  routedOf,
  send,
  ticketCardIds,
  ticketOpenedBy,
} from '../routing/helpers.ts';

/** One card as the model reads it in the turn's input (a batch may hold several). */
const cardBlock = (req: RecordedRequest, id: string): string =>
  inputOf(req)
    .split('<card id=')
    .find((b) => b.startsWith(`"${id}"`)) ?? '';

/**
 * Seed 004, "仅在明确引用时附加" and "通过 Subscription 和主 Session 协调" (R-B2, R-C4): attaching a
 * message subscribes the ticket to its whole thread, and an executor that finds such a thread
 * unrelated calls `orchestrator_thread_unrelated` and does not answer there.
 */
describe('threads a ticket follows (R-B2, R-C4)', () => {
  const w = useModelApp();
  const CHAT = 'threads';
  /** The replies the bot posted in the chat, each with the message it answers. */
  const replies = async () => (await botMessages(w.app.ctx, CHAT)).filter((m) => m.op === 'local.reply');
  const mainRequests = () => w.llm.requests.filter((r) => roleOf(r) === 'main');
  const executorSaw = (cardId: string) =>
    w.llm.requests.some((r) => roleOf(r) === 'executor' && cardsIn(r).includes(cardId));

  /**
   * A ticket opened by a request, and a separate message naming the ticket that the main session
   * attaches to it (a candidate: it replies to nothing). Returns the ticket and that message.
   */
  async function ticketWithAttachedThread(
    executor: (req: RecordedRequest) => ReturnType<typeof text>,
  ): Promise<{ ticket: string; attached: CardDraft; attachedCard: string }> {
    let ticket = '';
    w.llm.respond((req) => {
      if (roleOf(req) === 'main') {
        if (continues(req) || !cardsIn(req).length) return text('Routed.');
        return toolCalls([
          'orchestrator_route',
          {
            decisions: cardsIn(req).map((card) =>
              ticket && cardBlock(req, card).includes(`For ${ticket}:`)
                ? { card, action: 'attach', ticket }
                : { card, action: 'ignore' },
            ),
          },
        ]);
      }
      return executor(req);
    });
    const request = await send(w.app.ctx, localMessage('Please fix the CSV export', { chat: CHAT }));
    ticket = await ticketOpenedBy(w.app.ctx, request);
    await waitFor(
      async () => (await replies()).some((m) => m.text.includes('the CSV export')),
      'the request’s acknowledgement',
      20_000,
    );
    const attached = localMessage(`For ${ticket}: the header row is missing as well`, {
      chat: CHAT,
      request: false,
    });
    const attachedCard = await send(w.app.ctx, attached);
    await waitFor(
      async () => (await ticketCardIds(w.app.ctx, ticket)).includes(attachedCard),
      'the main session to attach the message',
    );
    await waitFor(
      async () => (await replies()).some((m) => m.messageId === attached.eventId),
      'the attached message’s acknowledgement',
    );
    return { ticket, attached, attachedCard };
  }

  it('R-B2: after the main session attaches a message, a reply to it reaches the ticket’s executor by code — no main-session request — and is acknowledged there', async () => {
    const { ticket, attached, attachedCard } = await ticketWithAttachedThread((req) => {
      if (continues(req)) return text('Done for now.');
      const to = cardsIn(req)[0] ?? '';
      const input = inputOf(req);
      if (input.includes('footer')) return toolCalls(['reply', { to, text: 'On it: the footer row too.' }]);
      if (input.includes('header row')) return toolCalls(['reply', { to, text: 'On it: the header row.' }]);
      return toolCalls(['reply', { to, text: 'On it: the CSV export.' }]);
    });
    expect(await routedOf(w.app.ctx, attachedCard)).toEqual({ kind: 'candidate' });
    const followUp = localMessage('and the footer row please', { chat: CHAT, replyTo: attached.eventId });
    const followUpCard = await send(w.app.ctx, followUp);
    const ack = await waitFor(
      async () => (await replies()).find((m) => m.text === 'On it: the footer row too.'),
      'the follow-up’s acknowledgement',
    );
    // What the person sees: the acknowledgement answers their reply, in the attached thread.
    expect(ack.messageId).toBe(followUp.eventId);
    expect(await routedOf(w.app.ctx, followUpCard)).toEqual({ kind: 'attached', tickets: [ticket] });
    expect(await ticketCardIds(w.app.ctx, ticket)).toContain(followUpCard);
    // The main session decided the attached message once and never saw the reply.
    expect(mainRequests().filter((r) => cardsIn(r).includes(attachedCard)).length).toBeGreaterThan(0);
    expect(mainRequests().some((r) => cardsIn(r).includes(followUpCard))).toBe(false);
  });

  it('R-C4: a thread declared unrelated is handed back with the reason, is not answered, and no longer reaches the ticket', async () => {
    let refused: string[] = [];
    const { ticket, attached } = await ticketWithAttachedThread((req) => {
      const input = inputOf(req);
      const to = cardsIn(req)[0] ?? '';
      if (input.includes('projector')) {
        if (!continues(req))
          return toolCalls([
            'orchestrator_thread_unrelated',
            { card: to, reason: 'About the projector key, not the CSV export.' },
          ]);
        if (
          !refused.length &&
          req.messages.at(-1)?.role === 'tool' &&
          lastToolResults(req)[0]?.startsWith('no longer')
        )
          return toolCalls(['reply', { to, purpose: 'answer', text: 'Ask the front desk.' }]);
        if (!refused.length) refused = lastToolResults(req);
        return text('Not mine.');
      }
      if (continues(req)) return text('Done for now.');
      return toolCalls([
        'reply',
        { to, text: input.includes('header row') ? 'On it: the header row.' : 'On it: the CSV export.' },
      ]);
    });
    // Someone answers the attached message about something else entirely.
    const offTopic = localMessage('unrelated: who has the projector key?', {
      chat: CHAT,
      replyTo: attached.eventId,
    });
    const offTopicCard = await send(w.app.ctx, offTopic);
    expect(await waitFor(() => routedOf(w.app.ctx, offTopicCard), 'routing')).toEqual({
      kind: 'attached',
      tickets: [ticket],
    });
    // Handed back: the main session gets it as a candidate, with the executor's reason.
    const seen = await waitFor(
      () => mainRequests().find((r) => cardsIn(r).includes(offTopicCard)),
      'the main session to get the handed-back message',
    );
    expect(inputOf(seen)).toContain(`handed back by ${ticket}: About the projector key, not the CSV export.`);
    await waitFor(() => refused.length > 0, 'the reply into the unrelated thread');
    expect(refused[0]).toBe(`Error: refused: you declared ${offTopicCard}'s thread unrelated (R-C4)`);

    // A later message in that thread goes to the main session, not to the ticket.
    const later = await send(
      w.app.ctx,
      localMessage('anyone? the projector', { chat: CHAT, replyTo: offTopic.eventId }),
    );
    await waitFor(
      () => mainRequests().some((r) => cardsIn(r).includes(later)),
      'the later message to reach the main session',
    );
    expect(await routedOf(w.app.ctx, later)).toEqual({ kind: 'candidate' });
    expect(executorSaw(later)).toBe(false);
    // What people see: nothing from the bot in the unrelated thread.
    const answered = (await replies()).map((m) => m.messageId);
    expect(answered).not.toContain(offTopic.eventId);
    expect((await replies()).some((m) => m.text === 'Ask the front desk.')).toBe(false);
  });
});
