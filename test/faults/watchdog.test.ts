import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reportsOf } from '../../src/tickets/reports.ts';
import { getTicket } from '../../src/tickets/ticket-store.ts';
import { botMessages, localMessage, send, ticketOpenedBy } from '../integration/routing/helpers.ts';
import { startTestApp, type TestApp, waitFor } from '../kit/app.ts';
import { type FakeLlm, startFakeLlm, text, toolCalls } from '../kit/fake-llm.ts';
import { ackAll, cardsIn, continues, openAll, roleOf } from '../kit/scripted-model.ts';
import { settle } from './github-world.ts';

const STALL_MS = 400;

describe('the watchdog: acknowledged, then silent past the limit → stalled, the requester told once (issue 8)', () => {
  let llm: FakeLlm;
  let app: TestApp;
  // Each test its own product and key prefix (issue 20).
  beforeEach(async () => {
    llm = await startFakeLlm();
    llm.respond((req) => {
      if (roleOf(req) === 'main')
        return req.messages.at(-1)?.role === 'tool' ? text('Routed.') : openAll(req);
      if (continues(req)) return text('Working on it in the background.');
      const first = JSON.stringify(req.messages).includes('finish this now');
      const card = cardsIn(req)[0] ?? '';
      // One request reports done right after its acknowledgement; the others acknowledge and go quiet.
      return first
        ? toolCalls(
            ['reply', { to: card, text: 'On it.' }],
            ['report', { status: 'done', summary: 'Finished.' }],
          )
        : ackAll(req);
    });
    app = await startTestApp({
      LLM_BASE_URL: llm.baseURL,
      LLM_API_KEY: 'sk-watchdog',
      STALL_AFTER_MS: String(STALL_MS),
      WATCHDOG_INTERVAL_MS: '100',
    });
  });
  afterEach(async () => {
    await app?.close();
    await llm?.close();
  });
  const stalledNotes = async (chat: string) =>
    // Replies only: the ticket's status message (issue 9) quotes the latest report too.
    (await botMessages(app.ctx, chat)).filter(
      (m) => (m as { op?: string }).op === 'local.reply' && m.text.includes('has stalled'),
    );

  it('a ticket that acknowledged and then took no step is marked stalled and its requester told once, with the reason', async () => {
    const card = await send(app.ctx, localMessage('please migrate the database', { chat: 'quiet' }));
    const ticket = await ticketOpenedBy(app.ctx, card);
    await waitFor(async () => (await stalledNotes('quiet')).length, 'the stall notice', 10_000);
    expect((await getTicket(app.ctx, ticket))?.state).toBe('waiting');
    const reports = await reportsOf(app.ctx, ticket);
    expect(reports.at(-1)).toMatchObject({ kind: 'stalled', by: 'host', status: 'blocked' });
    const [note] = await stalledNotes('quiet');
    expect(note?.text).toMatch(
      new RegExp(
        `${ticket} has stalled: after acknowledging, its executor took no step for \\d+ (seconds|minutes)`,
      ),
    );
    await settle(STALL_MS * 3);
    expect(await stalledNotes('quiet')).toHaveLength(1);
  });

  it('a ticket that finished is not stalled', async () => {
    const card = await send(app.ctx, localMessage('please finish this now', { chat: 'done' }));
    const ticket = await ticketOpenedBy(app.ctx, card);
    await waitFor(async () => (await getTicket(app.ctx, ticket))?.state === 'done', `${ticket} done`);
    await settle(STALL_MS * 3);
    expect(await stalledNotes('done')).toHaveLength(0);
    expect((await getTicket(app.ctx, ticket))?.state).toBe('done');
  });
});
