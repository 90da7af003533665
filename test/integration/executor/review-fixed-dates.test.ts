import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scheduleTurn } from '../../../src/executor/schedule-turn.ts';
import { waitFor } from '../../kit/app.ts';
import { type FakeReply, text, toolCalls } from '../../kit/fake-llm.ts';
import { cardsIn, lastToolResults, roleOf } from '../../kit/scripted-model.ts';
import { localMessage, send, ticketOpenedBy } from '../routing/helpers.ts';
import { type ExecStep, executorFlow, personReviewComment, startWorld, type World } from './harness.ts';

/** A commit made with `git commit` in the sandbox, dated as its maker likes. */
const DATED_2099 =
  "echo '// tidy' >> src/login.ts && GIT_AUTHOR_DATE=2099-01-01T00:00:00Z GIT_COMMITTER_DATE=2099-01-01T00:00:00Z " +
  "git -c user.name=bot -c user.email=bot@example.com commit -qam 'Tidy' && git log -1 --format=%cI";

/** The ticket's first turn follows `steps` and opens a PR; its number and the ticket. */
async function ticketWithPr(
  w: World,
  steps: ExecStep[],
): Promise<{ pr: number; ticket: string; results: string[] }> {
  const flow = executorFlow(w.llm, [
    (_r, card) => toolCalls(['reply', { to: card, text: `Working on acme/web for ${card}.` }]),
    ...steps,
    () => toolCalls(['open_pr', { title: 'Tidy', body: 'x' }]),
    () => toolCalls(['report', { status: 'done', summary: 'Ready.' }]),
  ]);
  const card = await send(w.app.ctx, localMessage('Please tidy the login of acme/web'));
  await flow.done();
  const r = flow.results.map((x) => x.join('\n'));
  for (const [i, result] of r.slice(0, steps.length + 1).entries())
    expect(result, `step ${i}`).not.toMatch(/^Error/);
  const pr = Number(/acme\/web#(\d+)/.exec(r.at(-2) ?? '')?.[1]);
  expect(pr).toBeGreaterThan(0);
  // The comment comes over two seconds later, past the slack, as a reviewer's would.
  await new Promise((resolve) => setTimeout(resolve, 2_100));
  return { pr, ticket: await ticketOpenedBy(w.app.ctx, card), results: r };
}

/**
 * A person's review comment on the PR, and the turn on it following `steps` (each given the
 * comment's card); what each step's tools answered.
 */
async function reviewTurn(
  w: World,
  { pr, ticket }: { pr: number; ticket: string },
  steps: ((comment: string) => FakeReply)[],
): Promise<string[]> {
  const results: string[][] = [];
  let comment = '';
  w.llm.respond((req) => {
    if (roleOf(req) === 'main') return text('Nothing.');
    if (req.messages.at(-1)?.role !== 'tool') {
      // Only the turn that holds the review comment follows the steps.
      comment = cardsIn(req).find((id) => !id.startsWith('local-')) ?? '';
      if (!comment) return text('Done.');
    } else if (comment) results.push(lastToolResults(req));
    return (comment && steps[results.length]?.(comment)) || text('Done.');
  });
  await personReviewComment(w, pr);
  await scheduleTurn(w.app.ctx, ticket);
  await waitFor(() => results.length >= steps.length, 'the review turn', 30_000);
  return results.map((x) => x.join('\n'));
}

const resolveFixed = (comment: string) =>
  toolCalls(['resolve_review_thread', { card: comment, outcome: 'fixed' }]);

describe('resolve_review_thread "fixed": a commit since the comment, by the bot’s clock (R-C7)', () => {
  let w: World;
  beforeEach(async () => {
    w = await startWorld();
  });
  afterEach(async () => {
    await w.close();
  });

  it('a commit dated 2099 and pushed before the comment is not a fix made after it', async () => {
    const at = await ticketWithPr(w, [
      () => toolCalls(['run_command', { command: DATED_2099 }]),
      () => toolCalls(['commit_and_push', { message: 'unused: the commit is made' }]),
      // Verified at HEAD too, so the time is all that stands between the claim and a resolved thread.
      () => toolCalls(['record_verification', { command: 'grep -q tidy src/login.ts' }]),
    ]);
    expect(at.results[1]).toContain('2099-01-01T00:00:00+00:00');
    expect(at.results[2]).toContain('nothing new to commit; pushed');
    const r = await reviewTurn(w, at, [resolveFixed]);
    expect(r[0]).toContain('refused: no commit since the comment arrived (R-C7)');
    expect(w.gh.resolvedThreads.size).toBe(0);
  }, 60_000);

  it('an empty commit pushed after the comment changes no file, so the thread is not fixed', async () => {
    const at = await ticketWithPr(w, [
      () => toolCalls(['run_command', { command: "echo '// tidy' >> src/login.ts" }]),
      () => toolCalls(['commit_and_push', { message: 'Tidy' }]),
      () => toolCalls(['record_verification', { command: 'grep -q tidy src/login.ts' }]),
    ]);
    const r = await reviewTurn(w, at, [
      () =>
        toolCalls([
          'run_command',
          { command: 'git -c user.name=bot -c user.email=bot@example.com commit -q --allow-empty -m wip' },
        ]),
      () => toolCalls(['commit_and_push', { message: 'unused' }]),
      resolveFixed,
    ]);
    expect(r[0]).toContain('exit 0');
    expect(r[1]).toContain('nothing new to commit; pushed');
    expect(r[2]).toContain(
      'refused: no file changed since the comment arrived (HEAD holds the files pushed before it) (R-C7)',
    );
    expect(w.gh.resolvedThreads.size).toBe(0);
  }, 60_000);
});
