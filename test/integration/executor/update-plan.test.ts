import { afterEach, describe, expect, it } from 'vitest';
import { toolCalls } from '../../kit/fake-llm.ts';
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
});
