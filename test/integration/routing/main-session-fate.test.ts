import { describe, expect, it } from 'vitest';
import { readEvents } from '../../../src/cards/event-log.ts';
import { waitFor } from '../../kit/app.ts';
import { text, toolCalls } from '../../kit/fake-llm.ts';
import { useModelApp } from '../../kit/model-app.ts';
import { ackAll, cardsIn, openAll, roleOf, scriptedModel } from '../../kit/scripted-model.ts';
import { localMessage, openTicketIn, send, ticketOpenedBy } from './helpers.ts';

/** The inbox entry of one card, waited for until its fate is `fate`. */
const fateOf = (w: ReturnType<typeof useModelApp>, cardId: string, fate: string) =>
  waitFor(async () => {
    const { events } = await readEvents(w.app.ctx, { fate: fate as 'opened' }, undefined, 50);
    return events.find((e) => e.id === cardId);
  }, `${cardId} ${fate} in the events inbox`);

describe("issue 33 item 2: the main session's decisions in the events inbox", () => {
  const w = useModelApp();

  it('a candidate opened by the main session shows as opened T…, with the decision record', async () => {
    w.llm.respond(scriptedModel({ main: openAll, executor: ackAll }));
    // A ticket open in the chat: the request is not opened by code (issue 18), it waits for the main session.
    const chat = `fate-open-${process.pid}-${Date.now()}`;
    await openTicketIn(w.app.ctx, chat);
    const card = await send(w.app.ctx, localMessage('rename the settings module', { chat }));
    const ticket = await ticketOpenedBy(w.app.ctx, card);
    const opened = await fateOf(w, card, 'opened');
    expect(opened).toMatchObject({ tickets: [ticket], reason: 'routing decision: explicit request', chat });
  });

  it('a candidate the main session ignores shows as ignored, with its note', async () => {
    w.llm.respond((req) => {
      if (roleOf(req) !== 'main') return text('ok');
      const decisions = cardsIn(req).map((card) => ({ card, action: 'ignore', note: 'small talk' }));
      return decisions.length ? toolCalls(['orchestrator_route', { decisions }]) : text('done');
    });
    const chat = `fate-ignore-${process.pid}-${Date.now()}`;
    await openTicketIn(w.app.ctx, chat);
    const card = await send(w.app.ctx, localMessage('nice weather today', { chat }));
    const ignored = await fateOf(w, card, 'ignored');
    expect(ignored.reason).toBe('ignored by the main session; note: small talk');
  });
});
