import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addTicketRefs } from '../../../src/tickets/ticket-store.ts';
import { type GitHubWorld, SECRET, startGitHubWorld } from '../../faults/github-world.ts';
import { waitFor } from '../../kit/app.ts';
import { text, toolCalls } from '../../kit/fake-llm.ts';
import { githubPayloads, sendGitHubEvent } from '../../kit/github-webhook.ts';
import {
  ackAll,
  cardsIn,
  continues,
  inputOf,
  lastToolResults,
  openAll,
  roleOf,
} from '../../kit/scripted-model.ts';

/**
 * Seed 004, "通过 human_action 提问" (R-C5), on GitHub: a question caused by a message the host
 * cannot reply to — a check run on a commit, outside any PR — is asked where the ticket began.
 */
describe('a question whose cause has no message to reply to (R-C5)', () => {
  let w: GitHubWorld;
  beforeEach(async () => {
    w = await startGitHubWorld();
  });
  afterEach(async () => w?.close());

  it('R-C5: a question naming a failed check outside any PR is asked on the issue that opened the ticket', async () => {
    const question = 'The login test fails on this commit: quarantine it or fix it first?';
    let answered: string[] = [];
    w.llm.respond((req) => {
      if (roleOf(req) === 'main') return continues(req) ? text('Routed.') : openAll(req);
      const checkRun = inputOf(req).includes('3 tests failed');
      if (continues(req)) {
        if (checkRun) answered = lastToolResults(req);
        return text('Done for now.');
      }
      if (!checkRun) return ackAll(req);
      const card = cardsIn(req)[0] ?? '';
      return toolCalls([
        'report',
        { status: 'working', summary: 'CI fails on the pushed commit.', human_action: { question, card } },
      ]);
    });
    const ticket = await w.open('ada', '@switchyard-bot please fix the login redirect');
    // The ticket pushed this commit; CI reports on it, on no PR.
    const sha = 'feed'.padEnd(40, '7');
    await addTicketRefs(w.app.ctx, ticket, [`commit:${sha}`]);
    const res = await sendGitHubEvent(
      w.app.url,
      'check_run',
      githubPayloads.checkRunFailed({ sha, prs: [], branch: 'sy/fix-login' }),
      { secret: SECRET },
    );
    const check = ((await res.json()) as { card: string }).card;
    expect(await w.routed(check)).toEqual({ kind: 'attached', tickets: [ticket] });
    // What people see: the question, once, on the issue where the ticket began.
    const asked = () => w.botComments(7).filter((c) => c.split('\n\n<!--')[0] === question);
    await waitFor(() => asked().length, 'the question on the issue', 20_000);
    await waitFor(() => answered.length > 0, 'the report’s answer');
    expect(answered[0]).toBe(
      `recorded working; question posted in the ticket’s original conversation: card ${check} has no message to reply to`,
    );
    expect(asked()).toHaveLength(1);
  });
});
