import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setChatRepo } from '../../../src/router/chat-repos.ts';
import { getTicket } from '../../../src/tickets/ticket-store.ts';
import { waitFor } from '../../kit/app.ts';
import { toolCalls } from '../../kit/fake-llm.ts';
import { botMessages, localMessage, send, ticketOpenedBy } from '../routing/helpers.ts';
import { executorFlow, startWorld, type World } from './harness.ts';

const ack = (card: string) => toolCalls(['reply', { to: card, text: `Looking into it for ${card}.` }]);

describe('which repository a ticket works in (issue 4)', () => {
  let w: World;
  beforeEach(async () => {
    w = await startWorld();
    w.gh.setRepo('acme/api', { clone_url: w.repo.url });
  });
  afterEach(async () => {
    await w.close();
  });

  it('R-C5: with no repository named and no chat default, work is refused and the executor asks through human_action', async () => {
    const flow = executorFlow(w.llm, [
      (_r, card) => ack(card),
      () => toolCalls(['list_files', {}]),
      () =>
        toolCalls([
          'report',
          {
            status: 'blocked',
            summary: 'Need the repository.',
            human_action: { question: 'Which repository is the footer in?' },
          },
        ]),
    ]);
    const card = await send(w.app.ctx, localMessage('Please fix the footer', { chat: 'lobby' }));
    await flow.done();
    expect(flow.results[1]?.join()).toMatch(
      /no checkout: .*no default; ask which repository through report with human_action/,
    );
    await waitFor(
      async () =>
        (await botMessages(w.app.ctx, 'lobby')).some((m) => m.text === 'Which repository is the footer in?'),
      'the question',
    );
    const ticket = await getTicket(w.app.ctx, await ticketOpenedBy(w.app.ctx, card));
    expect(ticket).toBeDefined();
    expect(ticket?.repo).toBeUndefined();
  });

  it('issue 4: a chat request uses the repository it names, and the choice is recorded on the ticket', async () => {
    const flow = executorFlow(w.llm, [(_r, card) => ack(card), () => toolCalls(['list_files', {}])]);
    const card = await send(w.app.ctx, localMessage('Please fix the footer in acme/api', { chat: 'lobby' }));
    await flow.done();
    expect(flow.results[1]?.join()).toContain('README.md');
    expect((await getTicket(w.app.ctx, await ticketOpenedBy(w.app.ctx, card)))?.repo).toBe('acme/api');
  });

  it('issue 4: a chat request naming none uses the chat’s default from the panel setting before CHAT_REPOS', async () => {
    await setChatRepo(w.app.ctx, 'room', 'acme/api');
    const flow = executorFlow(w.llm, [(_r, card) => ack(card), () => toolCalls(['list_files', {}])]);
    const card = await send(w.app.ctx, localMessage('Please fix the header'));
    await flow.done();
    expect(flow.results[1]?.join()).toContain('README.md');
    expect((await getTicket(w.app.ctx, await ticketOpenedBy(w.app.ctx, card)))?.repo).toBe('acme/api');
    await setChatRepo(w.app.ctx, 'room', undefined);
  });
});
