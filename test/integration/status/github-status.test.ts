import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deliveriesOf } from '../../../src/outbox/sent-records.ts';
import { isPaused } from '../../../src/tickets/pause.ts';
import { getTicket } from '../../../src/tickets/ticket-store.ts';
import { waitFor } from '../../kit/app.ts';
import { toolCalls } from '../../kit/fake-llm.ts';
import { githubPayloads, sendGitHubEvent } from '../../kit/github-webhook.ts';
import { roleOf } from '../../kit/scripted-model.ts';
import { onlyTicket } from '../routing/helpers.ts';
import { GITHUB_SECRET, gaps, type StatusWorld, scriptTurns, startStatusWorld } from './world.ts';

describe('one sticky status comment per ticket on GitHub (issue 9)', () => {
  let w: StatusWorld;
  const comment = (body: string, commentId: number) =>
    sendGitHubEvent(
      w.app.url,
      'issue_comment',
      githubPayloads.mentionComment({ repo: 'acme/web', number: 7, commentId, body }),
      { secret: GITHUB_SECRET },
    );
  const statusComments = () => w.gh.comments.filter((c) => c.number === 7 && /^### \S+ T\d+ · /.test(c.body));

  beforeEach(async () => {
    w = await startStatusWorld();
    w.gh.setRepo('acme/web');
    w.gh.addIssue('acme/web', { title: 'Flaky login test', user: { login: 'ada', type: 'User' } });
    scriptTurns(w.llm, [
      [
        'wrap it up',
        (k) => (k === 0 ? toolCalls(['report', { status: 'done', summary: 'Test fixed.' }]) : undefined),
      ],
      [
        'fix the flaky test',
        (k, card) => {
          if (k === 0) return toolCalls(['reply', { to: card, text: 'I will fix the flaky login test.' }]);
          if (k <= 30) return toolCalls(['report', { status: 'working', summary: `step ${k} of 30` }]);
          return undefined;
        },
      ],
    ]);
  });
  afterEach(async () => {
    await w.close();
  });

  // One retry: the done comment once never came in a full CI run (cause not found; the error says
  // what the ticket was doing). A failure that repeats still fails.
  const once = { timeout: 120_000, retry: 1 };
  it(
    'R-D1, R-B2: open → 30 steps → pause → resume → done is one comment, edited in place, never re-sent',
    once,
    async () => {
      const { ctx } = w.app;
      await comment(`@${w.gh.botLogin} please fix the flaky test`, 5001);
      const status = await waitFor(() => statusComments()[0], 'the status comment', 30_000);
      const ticket = await onlyTicket(ctx);
      await waitFor(() => status.body.includes('step 30 of 30'), 'the last step on the comment', 30_000);
      expect(status.body).toContain('/pause');

      // Pause and resume by comment; the replies to the status comment's issue reach the ticket.
      await comment('/pause', 5002);
      await waitFor(() => status.body.includes('· Paused'), 'the paused comment', 20_000);
      expect(status.body).toContain('**Paused by:** ada');
      await comment('/resume', 5003);
      await waitFor(
        async () => !(await isPaused(ctx, ticket)) && !status.body.includes('Paused'),
        'resumed',
        20_000,
      );
      await comment('wrap it up please', 5004);
      await waitFor(() => status.body.includes('· Done'), 'the done comment', 30_000).catch(async (err) => {
        // Seen once in a full CI run (2026-12-01), never alone: say what the ticket was doing.
        const executor = w.llm.requests.filter((r) => roleOf(r) === 'executor');
        const last = executor.at(-1)?.messages.findLast((m) => m.role === 'user')?.content ?? '';
        const state = { ticket: await getTicket(ctx, ticket), paused: await isPaused(ctx, ticket) };
        throw new Error(
          `${(err as Error).message}; ${JSON.stringify(state)}, ${executor.length} executor requests, last input ${JSON.stringify(last.slice(-300))}, comment ${JSON.stringify(status.body.slice(0, 300))}`,
        );
      });
      expect(status.body).toContain('Test fixed.');

      expect(statusComments()).toHaveLength(1);
      expect(w.gh.callsTo('POST', '/repos/acme/web/issues/7/comments').length).toBe(
        w.gh.comments.filter((c) => c.number === 7).length,
      );
      const edits = w.gh.callsTo('PATCH', `/repos/acme/web/issues/comments/${status.id}`);
      expect(edits.length).toBeGreaterThan(1);
      expect(edits.length).toBeLessThan(25);
      // Delivery times of the edits, as the outbox recorded them: at most one per 200 ms.
      const delivered = (await deliveriesOf(ctx, ticket)).filter((d) =>
        d.key.startsWith(`status:${ticket}:`),
      );
      expect(delivered.length).toBeGreaterThan(1);
      const times = delivered.map((d) => d.sent?.at ?? 0);
      expect(Math.min(...gaps(times))).toBeGreaterThanOrEqual(200);
    },
  );
});
