import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCard } from '../../../src/cards/ingest.ts';
import { saveTicketPr } from '../../../src/executor/workspace/delivery-records.ts';
import { recordSent } from '../../../src/outbox/sent-records.ts';
import { recordRevision } from '../../../src/prompts/index.ts';
import { addReport } from '../../../src/tickets/reports.ts';
import { createTicket } from '../../../src/tickets/ticket-store.ts';
import { startTestApp, type TestApp } from '../../kit/app.ts';
import { localMessage, send } from '../routing/helpers.ts';
import { call, TOKEN } from './client.ts';

const PR = { repo: 'acme/app', number: 7, nodeId: 'PR_7', url: 'https://github.com/acme/app/pull/7' };

describe('/api/tickets, /api/cards, /api/queues (issue 6 "Tickets")', () => {
  let app: TestApp;
  let ticketId: string;
  let cardId: string;
  beforeEach(async () => {
    app = await startTestApp({ ADMIN_TOKEN: TOKEN }, { workers: false });
    const { ctx } = app;
    cardId = await send(ctx, localMessage('Please rename the config module', { user: 'ada' }));
    const ticket = await createTicket(ctx, (await loadCard(ctx, cardId))!, { why: 'explicit request' });
    ticketId = ticket.id;
    await recordRevision(ctx, `exec-${ticketId}`, 0);
    await recordRevision(ctx, `exec-${ticketId}`, 2);
    await addReport(ctx, ticketId, { status: 'working', summary: 'on it', at: 4 });
    await recordSent(ctx, 'reply:k1', { at: 5, id: 'lm-1', op: 'local.reply' }, { id: ticketId, refs: [] });
    await saveTicketPr(ctx, ticketId, PR);
  });
  afterEach(() => app.close());

  it('issue 31: a malformed ticket id is 400 { error, code } on every /tickets/:id route, an unknown one 404', async () => {
    // `${id}:cards` names the ticket's cards list: read as a ticket it answered 500.
    for (const [method, path] of [
      ['GET', `/tickets/${ticketId}:cards`],
      ['GET', `/tickets/${ticketId}:cards/trajectory`],
      ['GET', `/tickets/${ticketId}:cards/screenshots/x`],
      ['POST', `/tickets/${ticketId}:cards/pause`],
      ['POST', `/tickets/${ticketId}:cards/resume`],
    ] as const) {
      const { status, body } = await call(app, method, path);
      expect(status, `${method} ${path}`).toBe(400);
      expect(body).toMatchObject({ code: 'bad_ticket_id', error: expect.any(String) });
    }
    expect((await call(app, 'GET', '/tickets/T999999999')).status).toBe(404);
    expect((await call(app, 'POST', '/tickets/T999999999/pause')).status).toBe(404);
    expect((await call(app, 'GET', `/tickets/${ticketId}`)).status).toBe(200);
  });

  it('GET /tickets lists each ticket with state, owners, pause, title, created and repo', async () => {
    const { status, body } = await call(app, 'GET', '/tickets');
    expect(status).toBe(200);
    expect(body.tickets).toHaveLength(1);
    expect(body.tickets[0]).toMatchObject({
      id: ticketId,
      title: 'Please rename the config module',
      state: 'open',
      owners: { requester: { id: 'ada', name: 'ada' }, session: `exec-${ticketId}` },
      pause: null,
      repo: null,
      source: 'local',
      openedBy: cardId,
    });
    expect(typeof body.tickets[0].createdAt).toBe('number');
  });

  it('GET /tickets/:id shows threads, PRs, cards with why, sessions with revisions, outbox and reports', async () => {
    const { status, body } = await call(app, 'GET', `/tickets/${ticketId}`);
    expect(status).toBe(200);
    const card = await loadCard(app.ctx, cardId);
    expect(body.threads).toEqual([`msg:${card?.origin.source === 'local' ? card.origin.messageId : ''}`]);
    expect(body.pr).toEqual(PR);
    expect(body.cards).toEqual([
      expect.objectContaining({
        cardId,
        why: 'explicit request',
        card: expect.objectContaining({
          author: expect.objectContaining({ id: 'ada' }),
          kind: 'message',
          excerpt: 'Please rename the config module',
        }),
      }),
    ]);
    expect(body.sessions).toEqual([expect.objectContaining({ id: `exec-${ticketId}`, revisions: [0, 2] })]);
    expect(body.outbox).toEqual([{ key: 'reply:k1', sent: { at: 5, id: 'lm-1', op: 'local.reply' } }]);
    expect(body.reports).toEqual([{ status: 'working', summary: 'on it', at: 4 }]);
  });

  it('404 for an unknown ticket, on read, pause and resume', async () => {
    for (const [method, path] of [
      ['GET', '/tickets/T999'],
      ['POST', '/tickets/T999/pause'],
      ['POST', '/tickets/T999/resume'],
    ] as const) {
      expect(await call(app, method, path)).toMatchObject({ status: 404, body: { code: 'not_found' } });
    }
    expect(await app.ctx.redis.exists(app.ctx.keys.pause('T999'))).toBe(0);
  });

  it('R-A3: GET /cards/:id/text answers the whole text of a truncated card, else its text; 404 unknown', async () => {
    const long = `${'word '.repeat(1500)}the end`;
    const id = await send(app.ctx, localMessage(long));
    const card = await loadCard(app.ctx, id);
    expect(card?.truncated?.resource).toBe(`/api/cards/${id}/text`);
    const full = await call(app, 'GET', `/cards/${id}/text`);
    expect(full).toEqual({ status: 200, body: { id, text: long, totalChars: long.length, truncated: true } });
    expect((await call(app, 'GET', `/cards/${cardId}/text`)).body).toMatchObject({
      text: 'Please rename the config module',
      truncated: false,
    });
    expect((await call(app, 'GET', '/cards/local-nope/text')).status).toBe(404);
  });

  it('GET /queues counts jobs per queue and state', async () => {
    await send(app.ctx, localMessage('a second card, so the count is this test’s own'));
    const { status, body } = await call(app, 'GET', '/queues');
    expect(status).toBe(200);
    expect(body.queues.map((q: { name: string }) => q.name).sort()).toEqual([
      'executor',
      'main',
      'outbox',
      'route',
      // Issue 17: the watchdog and sweeps' queue is counted like the others.
      'safety',
      'status',
    ]);
    const route = body.queues.find((q: { name: string }) => q.name === 'route');
    // Workers are off here, so the routing jobs of the two cards of this test wait.
    expect(route).toMatchObject({ waiting: 2, active: 0, failed: 0 });
    expect(typeof route.completed).toBe('number');
  });
});
