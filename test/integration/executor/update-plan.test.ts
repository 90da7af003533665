import { afterEach, describe, expect, it } from 'vitest';
import { contextPrompts } from '../../../src/session/context/context-prompts.ts';
import { waitFor } from '../../kit/app.ts';
import { type RecordedRequest, text, toolCalls } from '../../kit/fake-llm.ts';
import { cardsIn, openAll, roleOf } from '../../kit/scripted-model.ts';
import { localMessage, send, ticketOpenedBy } from '../routing/helpers.ts';
import { executorFlow, SECRETS, startWorld, type World } from './harness.ts';

/**
 * Issue 48 item 4: update_plan is offered to the executor; its newest plan is stored on the
 * ticket, shown on the ticket page's data and in the live status text.
 */

const api = (w: World, path: string) =>
  fetch(`${w.app.url}${path}`, { headers: { authorization: `Bearer ${SECRETS.ADMIN_TOKEN}` } });

describe('issue 48: a plan', () => {
  let w: World;
  afterEach(async () => {
    await w.close();
  });

  it('issue 48: update_plan is offered, refuses two steps in progress, and its newest plan is on the ticket and its live status', async () => {
    w = await startWorld();
    const flow = executorFlow(w.llm, [
      (_r, card) => toolCalls(['reply', { to: card, text: `Working on it, ${card}.` }]),
      () =>
        toolCalls([
          'update_plan',
          {
            steps: [
              { step: 'Read the login code', status: 'in_progress' },
              { step: 'Fix the redirect', status: 'in_progress' },
            ],
          },
        ]),
      () =>
        toolCalls([
          'update_plan',
          {
            steps: [
              { step: 'Read the login code', status: 'completed' },
              { step: 'Fix the redirect', status: 'in_progress' },
              { step: 'Open a PR', status: 'pending' },
            ],
          },
        ]),
    ]);
    const card = await send(w.app.ctx, localMessage('Please fix the login redirect'));
    await flow.done();
    expect(w.llm.requests.at(-1)?.tools.map((t) => t.function.name)).toContain('update_plan');
    expect(flow.results[1]).toEqual([
      'Error: refused: 2 steps are in_progress; mark one in_progress and the others pending or completed',
    ]);
    expect(flow.results[2]).toEqual(['plan updated: 1 of 3 steps completed; now: Fix the redirect']);
    const id = await ticketOpenedBy(w.app.ctx, card);
    const detail = (await (await api(w, `/api/tickets/${id}`)).json()) as {
      plan: { steps: { step: string; status: string }[] } | null;
      statusText: string | null;
    };
    expect(detail.plan?.steps).toEqual([
      { step: 'Read the login code', status: 'completed' },
      { step: 'Fix the redirect', status: 'in_progress' },
      { step: 'Open a PR', status: 'pending' },
    ]);
    // Markdown line breaks: the status text ends each line with two spaces.
    expect(detail.statusText).toMatch(
      /\*\*Plan:\*\* *\n- ✓ Read the login code *\n- ▶ Fix the redirect *\n- ○ Open a PR/,
    );
  });

  it('review: after a compaction the plan in view is the stored one, not a refused update_plan that came after it', async () => {
    const filler = Array.from({ length: 200 }, (_, i) => `row ${i}: ${'y'.repeat(40)}`).join('\n');
    w = await startWorld({ LLM_CONTEXT_TOKENS: '24000' }, { files: { 'data/filler.txt': `${filler}\n` } });
    let card = '';
    let summarised = false;
    let after: RecordedRequest | undefined;
    let n = 0;
    w.llm.respond((req) => {
      if (roleOf(req) === 'main')
        return req.messages.at(-1)?.role === 'tool' ? text('Routed.') : openAll(req);
      if (req.system === contextPrompts.summarise) {
        summarised = true;
        return text(`Working on the login for ${card}.`);
      }
      if (after) return text('Done for now.');
      if (summarised) {
        after = req;
        return text('Done for now.');
      }
      n += 1;
      if (n === 1) {
        card = cardsIn(req)[0] ?? '';
        return toolCalls(
          ['reply', { to: card, text: `Fixing the login for ${card}.` }],
          ['update_plan', { steps: [{ step: 'Read the login code', status: 'in_progress' }] }],
        );
      }
      if (n === 2)
        return toolCalls([
          'update_plan',
          {
            steps: [
              { step: 'Refused step one', status: 'in_progress' },
              { step: 'Refused step two', status: 'in_progress' },
            ],
          },
        ]);
      return toolCalls(['read_file', { path: 'data/filler.txt' }]);
    });
    await send(w.app.ctx, localMessage('Please fix the login redirect'));
    await waitFor(() => after, 'the request after the summary', 45_000);
    const progress = after?.messages[1]?.content ?? '';
    expect(progress).toMatch(/^Progress so far/);
    expect(progress).toContain(
      'Your plan, as you last set it with update_plan (keep it current with update_plan):\n\n- [>] Read the login code',
    );
    expect(progress).not.toContain('Refused step');
  }, 60_000);
});
