import { describe, expect, it } from 'vitest';
import { waitFor } from '../../kit/app.ts';
import { text, toolCalls } from '../../kit/fake-llm.ts';
import { useModelApp } from '../../kit/model-app.ts';
import { cardsIn, continues, inputOf, lastToolResults, openAll, roleOf } from '../../kit/scripted-model.ts';
import { botMessages, localMessage, send } from '../routing/helpers.ts';

describe('executor messages (R-C2, R-D1, R-C5)', () => {
  const w = useModelApp();
  const replies = async (chat: string) =>
    (await botMessages(w.app.ctx, chat)).filter((m) => m.op === 'local.reply');

  it('R-C2/R-D1: a second acknowledgement and a 101-word reply are refused, and nothing of them is sent', async () => {
    const long = Array.from({ length: 101 }, (_, i) => `w${i}`).join(' ');
    let results: string[] = [];
    w.llm.respond((req) => {
      if (roleOf(req) === 'main') return req.messages.at(-1)?.role === 'tool' ? text('ok') : openAll(req);
      if (continues(req)) {
        if (req.messages.at(-1)?.role === 'tool') results = lastToolResults(req);
        return text('done');
      }
      const to = cardsIn(req)[0];
      return toolCalls(
        ['reply', { to, text: 'On it: the CSV export button, expect a PR today.' }],
        ['reply', { to, text: 'On it, again.' }],
        ['reply', { to, purpose: 'result', text: long }],
      );
    });
    await send(w.app.ctx, localMessage('Please fix the CSV export button', { chat: 'acks' }));
    await waitFor(() => results.length === 3, 'the three replies');
    expect(results[0]).toMatch(/^reply queued/);
    expect(results[1]).toMatch(/^Error: refused: .* was already acknowledged; acknowledge once \(R-C2\)/);
    expect(results[2]).toMatch(/^Error: refused, nothing sent: 101 words; a message is at most 100 \(R-D1\)/);
    await new Promise((r) => setTimeout(r, 300));
    expect((await replies('acks')).map((m) => m.text)).toEqual([
      'On it: the CSV export button, expect a PR today.',
    ]);
  });

  it('R-C5: a human_action question is asked verbatim in reply to the message that caused it, and the answer reaches the ticket', async () => {
    const question = 'Should the export use commas or semicolons as separators?';
    const seen: string[] = [];
    w.llm.respond((req) => {
      if (roleOf(req) === 'main') return req.messages.at(-1)?.role === 'tool' ? text('ok') : openAll(req);
      if (continues(req)) return text('done');
      const input = inputOf(req);
      seen.push(input);
      const to = cardsIn(req)[0];
      if (input.includes('semicolons, please'))
        return toolCalls(['reply', { to, text: 'Using semicolons.' }]);
      if (input.includes('European users')) {
        return toolCalls(
          ['reply', { to, text: 'Noted: separators for European users.' }],
          [
            'report',
            {
              status: 'working',
              summary: 'Needs a separator decision.',
              human_action: { question, card: to },
            },
          ],
        );
      }
      return toolCalls(['reply', { to, text: 'On it: the export separators.' }]);
    });
    const first = await send(w.app.ctx, localMessage('Please fix the export for Excel', { chat: 'ask' }));
    const ack = await waitFor(
      async () => (await replies('ask')).find((m) => m.text.includes('export separators')),
      'the acknowledgement',
    );
    const cause = await send(
      w.app.ctx,
      localMessage('it breaks for our European users', { chat: 'ask', replyTo: ack.id }),
    );
    const asked = await waitFor(
      async () => (await replies('ask')).find((m) => m.text === question),
      'the question',
    );
    // Asked in reply to the person's message that caused it, not to the original request.
    const causeCard = JSON.parse((await w.app.ctx.redis.get(w.app.ctx.keys.card(cause))) ?? '{}');
    expect(asked.messageId).toBe(causeCard.origin.messageId);
    // Issue 15: asked once — the status message says a question waits, without repeating it.
    const status = await waitFor(
      async () =>
        (await botMessages(w.app.ctx, 'ask')).findLast(
          (m) => m.op === 'local.status' && m.text.includes('asked in the conversation'),
        ),
      'the status message naming the waiting question',
    );
    expect(status.text).not.toContain(question);

    await send(w.app.ctx, localMessage('semicolons, please', { chat: 'ask', replyTo: asked.id }));
    await waitFor(
      async () => (await replies('ask')).some((m) => m.text === 'Using semicolons.'),
      'the answer to reach the executor',
    );
    // The answer attached by code to the same ticket, through the question's message id.
    const [ticket] = await w.app.ctx.redis.smembers(w.app.ctx.keys.cardOwners(first));
    const attached = await w.app.ctx.redis.lrange(w.app.ctx.keys.ticketCards(ticket ?? ''), 0, -1);
    expect(attached.some((a) => a.includes(`explicit reference msg:${asked.id}`))).toBe(true);
    expect(seen.filter((s) => s.includes('semicolons, please'))).toHaveLength(1);
  });

  it('R-C5, R-H5: report’s question goes only to one of its own ticket’s cards, never another ticket’s thread', async () => {
    const question = 'Which login provider should I keep?';
    let results: string[] = [];
    let other = '';
    w.llm.respond((req) => {
      if (roleOf(req) === 'main') return req.messages.at(-1)?.role === 'tool' ? text('ok') : openAll(req);
      if (continues(req)) {
        if (req.messages.at(-1)?.role === 'tool' && inputOf(req).includes('login page'))
          results = lastToolResults(req);
        return text('done');
      }
      const to = cardsIn(req)[0];
      if (!inputOf(req).includes('login page')) return toolCalls(['reply', { to, text: 'On it: the docs.' }]);
      return toolCalls(
        ['reply', { to, text: 'On it: the login page.' }],
        ['report', { status: 'working', summary: 'Asking.', human_action: { question, card: other } }],
      );
    });
    other = await send(w.app.ctx, localMessage('Please update the docs', { chat: 'other-team' }));
    await waitFor(
      async () => (await replies('other-team')).length === 1,
      'the other ticket’s acknowledgement',
    );
    await send(w.app.ctx, localMessage('Please fix the login page', { chat: 'own-team' }));
    await waitFor(() => results.length === 2, 'the report result');
    expect(results[1]).toMatch(/^Error: refused: card .* is not one of this ticket’s own cards/);
    await new Promise((r) => setTimeout(r, 300));
    expect((await replies('other-team')).map((m) => m.text)).toEqual(['On it: the docs.']);
    expect((await replies('own-team')).some((m) => m.text === question)).toBe(false);
  });
});
