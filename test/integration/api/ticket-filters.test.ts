import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCard } from '../../../src/cards/ingest.ts';
import { saveTicketPr } from '../../../src/executor/workspace/delivery-records.ts';
import { answerQuestion, openQuestion } from '../../../src/status/status-facts.ts';
import { pauseTicket } from '../../../src/tickets/pause.ts';
import { createTicket, setTicketState, updateTicket } from '../../../src/tickets/ticket-store.ts';
import { startTestApp, type TestApp } from '../../kit/app.ts';
import { localMessage, send } from '../routing/helpers.ts';
import { call } from './client.ts';

/**
 * Issue 49 items 3 and 4: `GET /api/tickets` filters on the server (search, state, repository,
 * requester, PR, what it waits on) and refuses a bad filter with its reason; `GET /api/needs-you`
 * lists what waits on a person, with the question.
 */
describe('issue 49: ticket filters and "needs you"', () => {
  let app: TestApp;
  const ids: Record<string, string> = {};
  const open = async (name: string, text: string, user: string) => {
    const cardId = await send(app.ctx, localMessage(text, { user }));
    ids[name] = (
      await createTicket(app.ctx, (await loadCard(app.ctx, cardId))!, { why: 'explicit request' })
    ).id;
    return ids[name];
  };
  beforeAll(async () => {
    app = await startTestApp({ ADMIN_TOKEN: 'test-admin-token-0123456789abcdefghij' }, { workers: false });
    const { ctx } = app;
    const asking = await open('asking', 'Rename the config module', 'ada');
    await setTicketState(ctx, asking, 'waiting');
    const q = { question: 'Keep the old name as an alias?', choices: ['yes', 'no'], turnId: 't1', at: 10 };
    await openQuestion(ctx, asking, q);
    const answered = await open('answered', 'Bump the lockfile', 'ada');
    await openQuestion(ctx, answered, { ...q, at: 11 });
    await answerQuestion(ctx, answered, { choice: 1, text: 'yes', by: 'ada', at: 12, askedAt: 11 });
    const blocked = await open('blocked', 'Fix the flaky login test', 'grace');
    await setTicketState(ctx, blocked, 'waiting');
    await updateTicket(ctx, blocked, { repo: 'acme/app' });
    await saveTicketPr(ctx, blocked, {
      repo: 'acme/app',
      number: 7,
      nodeId: 'PR_7',
      url: 'https://github.com/acme/app/pull/7',
    });
    const spent = await open('spent', 'Write the changelog', 'grace');
    await pauseTicket(ctx, spent, { by: 'budget', at: 13, via: 'budget' });
    const finished = await open('finished', 'Old work', 'linus');
    await setTicketState(ctx, finished, 'done');
  }, 60_000);
  afterAll(() => app?.close());

  const listed = async (query: string) => {
    const { status, body } = await call(app, 'GET', `/tickets?${query}`);
    expect(status, query).toBe(200);
    return (body.tickets as { id: string }[]).map((t) => t.id).sort();
  };
  const only = (...names: string[]) => names.map((n) => ids[n]).sort();

  it('each filter narrows the list on the server; rows say what they wait on, the question and the PR', async () => {
    expect(await listed('')).toEqual(only('asking', 'answered', 'blocked', 'spent', 'finished'));
    expect(await listed('q=LOGIN')).toEqual(only('blocked'));
    expect(await listed('q=alias')).toEqual(only('asking'));
    expect(await listed('state=done,open')).toEqual(only('answered', 'spent', 'finished'));
    expect(await listed('repo=Acme/App')).toEqual(only('blocked'));
    expect(await listed('requester=grace')).toEqual(only('blocked', 'spent'));
    expect(await listed('pr=yes')).toEqual(only('blocked'));
    expect(await listed('pr=no&requester=grace')).toEqual(only('spent'));
    expect(await listed('waiting=answer')).toEqual(only('asking'));
    expect(await listed('waiting=blocked')).toEqual(only('blocked'));
    expect(await listed('waiting=budget')).toEqual(only('spent'));
    expect(await listed('waiting=paused')).toEqual(only('spent'));
    expect(await listed('limit=2')).toHaveLength(2);
    const { body } = await call(app, 'GET', '/tickets?waiting=answer');
    expect(body.tickets[0]).toMatchObject({
      status: 'waiting',
      waitingOn: 'answer',
      question: 'Keep the old name as an alias?',
      pr: null,
    });
    const row = (await call(app, 'GET', '/tickets?pr=yes')).body.tickets[0];
    expect(row).toMatchObject({ status: 'blocked', waitingOn: 'blocked', pr: { label: 'acme/app#7' } });
  });

  it('a bad filter is a 400 that names it and says what it takes', async () => {
    for (const [query, says] of [
      ['state=stuck', 'state: one of open, working, waiting, done, cancelled'],
      ['state=open,,done', 'state: an empty value in the list'],
      ['pr=maybe', 'pr: one of yes, no'],
      ['waiting=godot', 'waiting: one of answer, blocked, paused, budget'],
      ['repo=not-a-repo', 'repo: owner/name'],
      ['limit=ten', 'limit: a whole number from 1 to 500'],
      [`q=${'x'.repeat(201)}`, 'q: at most 200 characters'],
      ['colour=red', 'unknown parameter colour'],
    ]) {
      const { status, body } = await call(app, 'GET', `/tickets?${query}`);
      expect(status, query).toBe(400);
      expect(body.code, query).toBe('bad_filter');
      expect(body.error, query).toContain(says);
    }
  });

  it('GET /needs-you: the open question first, then the blocked ticket and the one its budget paused', async () => {
    const { status, body } = await call(app, 'GET', '/needs-you');
    expect(status).toBe(200);
    expect(body.items).toEqual([
      expect.objectContaining({
        kind: 'answer',
        ticketId: ids.asking,
        question: 'Keep the old name as an alias?',
      }),
      expect.objectContaining({ kind: 'blocked', ticketId: ids.blocked, title: 'Fix the flaky login test' }),
      expect.objectContaining({ kind: 'budget', ticketId: ids.spent }),
    ]);
  });
});
