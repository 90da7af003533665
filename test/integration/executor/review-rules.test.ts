import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scheduleTurn } from '../../../src/executor/schedule-turn.ts';
import { pauseTicket, resumeTicket } from '../../../src/tickets/pause.ts';
import { waitFor } from '../../kit/app.ts';
import { type FakeReply, type RecordedRequest, text, toolCalls } from '../../kit/fake-llm.ts';
import { githubPayloads } from '../../kit/github-webhook.ts';
import { cardsIn, continues, inputOf, lastToolResults, roleOf } from '../../kit/scripted-model.ts';
import { localMessage, send, ticketOpenedBy } from '../routing/helpers.ts';
import { executorFlow, sendReviewComment, startWorld, type World } from './harness.ts';

/** Per executor turn: `first` answers its first request, `then` each request after tool results. */
function turns(
  w: World,
  first: (req: RecordedRequest) => FakeReply,
  then: (n: number) => FakeReply = () => text('Done.'),
) {
  const log: { input: string; results: string[][] }[] = [];
  w.llm.respond((req) => {
    if (roleOf(req) === 'main') return text('Nothing.');
    if (!continues(req)) {
      log.push({
        input: inputOf(req),
        results: [],
      });
      return first(req);
    }
    const turn = log.at(-1);
    turn?.results.push(lastToolResults(req));
    return then(turn?.results.length ?? 0);
  });
  return log;
}

async function ticketWithPr(w: World, ask: string) {
  const flow = executorFlow(w.llm, [
    (_r, card) => toolCalls(['reply', { to: card, text: `Working on acme/web for ${card}.` }]),
    () =>
      toolCalls(
        ['read_file', { path: 'src/login.ts' }],
        ['write_file', { path: 'src/login.ts', content: 'export const next = (u: string) => u || "/";\n' }],
      ),
    () => toolCalls(['commit_and_push', { message: 'Fallback' }]),
    () => toolCalls(['open_pr', { title: 'Fallback', body: 'Falls back to /.' }]),
    () => toolCalls(['report', { status: 'working', summary: 'Draft PR open.' }]),
  ]);
  const card = await send(w.app.ctx, localMessage(ask));
  await flow.done();
  expect(flow.results[3]?.join()).toMatch(/opened draft PR acme\/web#(\d+)/);
  const pr = Number(/acme\/web#(\d+)/.exec(flow.results[3]?.join() ?? '')?.[1]);
  return { pr, ticket: await ticketOpenedBy(w.app.ctx, card) };
}

const hook = sendReviewComment;

/** GraphQL reads of review threads (pages) since the `from`-th call to the fake GitHub. */
const threadPages = (w: World, from: number) =>
  w.gh.calls.slice(from).filter((c) => /reviewThreads/.test(String((c.body as { query?: unknown })?.query)))
    .length;

describe('reviews by outcome (R-C7)', () => {
  let w: World;
  beforeEach(async () => {
    w = await startWorld();
  });
  afterEach(async () => {
    await w.close();
  });

  it('R-C7: a fixed and verified thread is resolved without a comment; a rejected one gets one sentence and stays open', async () => {
    const { pr, ticket } = await ticketWithPr(w, 'Please add a login fallback');
    await pauseTicket(w.app.ctx, ticket, { by: 'test', at: Date.now(), via: 'api' });
    const user = { login: 'grace', type: 'User' as const };
    const fix = w.gh.addReviewComment('acme/web', pr, { body: 'Please fall back to /home instead', user });
    const nope = w.gh.addReviewComment('acme/web', pr, { body: 'Use tabs here', user });
    for (const c of [fix, nope])
      expect(
        (
          await hook(
            w,
            githubPayloads.reviewComment({
              repo: 'acme/web',
              number: pr,
              author: 'grace',
              commentId: c.id,
              body: c.body,
            }),
          )
        ).status,
      ).toBe(202);
    await waitFor(
      async () => (await w.app.ctx.redis.llen(w.app.ctx.keys.ticketInbox(ticket))) === 2,
      'both comments on the ticket',
    );
    let fixCard = '';
    let nopeCard = '';
    const steps = [
      () => toolCalls(['resolve_review_thread', { card: fixCard, outcome: 'fixed' }]),
      () =>
        toolCalls(
          ['read_file', { path: 'src/login.ts' }],
          [
            'write_file',
            { path: 'src/login.ts', content: 'export const next = (u: string) => u || "/home";\n' },
          ],
        ),
      () => toolCalls(['commit_and_push', { message: 'Fall back to /home' }]),
      () => toolCalls(['record_verification', { command: 'grep -q home src/login.ts' }]),
      () =>
        toolCalls(
          ['resolve_review_thread', { card: fixCard, outcome: 'fixed' }],
          ['resolve_review_thread', { card: nopeCard, outcome: 'answered' }],
        ),
      () =>
        toolCalls([
          'reply',
          {
            to: nopeCard,
            purpose: 'answer',
            text: 'The repository’s formatter enforces spaces, so I kept them.',
          },
        ]),
    ];
    const log = turns(
      w,
      (req) => {
        [fixCard = '', nopeCard = ''] = cardsIn(req);
        return steps[0]?.() ?? text('');
      },
      (n) => steps[n]?.() ?? text('Done.'),
    );
    await resumeTicket(w.app.ctx, ticket);
    await scheduleTurn(w.app.ctx, ticket);
    await waitFor(() => (log[0]?.results.length ?? 0) >= steps.length, 'the review turn', 30_000);
    expect(log).toHaveLength(1);
    const r = log[0]?.results.map((x) => x.join('\n')) ?? [];
    expect(r[0]).toMatch(
      /refused: no commit since the comment arrived|refused: no file changed since the comment arrived|refused: no passing verification/,
    );
    expect(r[4]).toContain(`resolving PRRT_${fix.id}`);
    expect(r[4]).toMatch(/refused: a person’s thread is resolved only when fixed/);
    await waitFor(() => w.gh.resolvedThreads.has(`PRRT_${fix.id}`), 'the fixed thread resolved');
    const replies = await waitFor(() => {
      // This PR's replies only: the file's other tests answer on their own PRs (issue 20).
      const found = w.gh.reviewComments.filter((c) => c.in_reply_to_id !== undefined && c.number === pr);
      return found.length ? found : undefined;
    }, 'the one-sentence answer');
    expect(replies).toHaveLength(1);
    expect(replies[0]?.threadId).toBe(`PRRT_${nope.id}`);
    expect(w.gh.resolvedThreads.has(`PRRT_${nope.id}`)).toBe(false);
    expect(w.gh.comments.filter((c) => c.number === pr)).toEqual([]);
  });

  it('R-C7: three review comments sent together reach the executor as one turn', async () => {
    const { pr } = await ticketWithPr(w, 'Please tidy the login module');
    const log = turns(w, () => text('Looking at the three comments.'));
    const user = { login: 'grace', type: 'User' as const };
    const comments = ['Rename next()', 'Add a test', 'Drop the console.log'].map((body) =>
      w.gh.addReviewComment('acme/web', pr, { body, user }),
    );
    for (const c of comments) {
      const res = await hook(
        w,
        githubPayloads.reviewComment({
          repo: 'acme/web',
          number: pr,
          author: 'grace',
          commentId: c.id,
          body: c.body,
        }),
      );
      expect(res.status).toBe(202);
    }
    await waitFor(() => log.length > 0, 'the review turn', 20_000);
    await new Promise((r) => setTimeout(r, 2500));
    expect(log).toHaveLength(1);
    for (const c of comments) expect(log[0]?.input).toContain(c.body);
  }, 60_000);

  it('R-C7: an automated reviewer’s threads are resolved once answered, and its fourth round on the PR is noted, not worked', async () => {
    const { pr, ticket } = await ticketWithPr(w, 'Please add a login fallback for staging');
    // Issue 46: 150 earlier threads, so the reviewer's are past GitHub's page of 100 (`first` ≤ 100).
    const grace = { login: 'grace', type: 'User' as const };
    for (let i = 0; i < 150; i++) w.gh.addReviewComment('acme/web', pr, { body: `Old ${i}`, user: grace });
    const calls = w.gh.calls.length;
    let card = '';
    let lastComment = 0;
    const log = turns(w, (req) => {
      card = cardsIn(req)[0] ?? '';
      return toolCalls(
        ['reply', { to: card, purpose: 'answer', text: 'Handled in the latest commit.' }],
        ['resolve_review_thread', { card, outcome: 'answered' }],
      );
    });
    const bot = { login: 'lint-bot[bot]', type: 'Bot' as const };
    for (let round = 1; round <= 4; round++) {
      const c = w.gh.addReviewComment('acme/web', pr, { body: `Nit ${round}`, user: bot });
      lastComment = c.id;
      await hook(
        w,
        githubPayloads.reviewComment({
          repo: 'acme/web',
          number: pr,
          author: 'lint-bot[bot]',
          commentId: c.id,
          body: c.body,
        }),
      );
      await waitFor(
        () => log.length === round && (log[round - 1]?.results.length ?? 0) >= 1,
        `round ${round}`,
        30_000,
      );
      const results = log[round - 1]?.results[0]?.join('\n') ?? '';
      if (round <= 3) {
        expect(results).toContain(`resolving PRRT_${c.id}`);
        await waitFor(() => w.gh.resolvedThreads.has(`PRRT_${c.id}`), `round ${round} resolved`);
        if (round === 1) expect(threadPages(w, calls)).toBeGreaterThanOrEqual(2);
      } else {
        expect(log[3]?.input).toMatch(/Noted, not worked: .*round 4 from automated reviewer lint-bot\[bot\]/);
        expect(results).toMatch(/refused: .* is noted, not worked/);
        // Nor does it get an answer: `reply` refuses a noted card too.
        expect(results).toMatch(/refused: .* past 3 rounds on this PR: noted, not worked/);
        expect(w.gh.resolvedThreads.has(`PRRT_${c.id}`)).toBe(false);
      }
    }
    const rounds = await w.app.ctx.redis.hget(w.app.ctx.keys.prBotRounds('acme/web', pr), 'lint-bot[bot]');
    expect(rounds).toBe('4');
    // A later turn of the ticket: the fourth round is still noted, not worked (the count is per PR).
    const noted = card;
    const later = turns(w, () =>
      toolCalls(
        ['reply', { to: noted, purpose: 'answer', text: 'Handled now.' }],
        ['resolve_review_thread', { card: noted, outcome: 'answered' }],
      ),
    );
    // A person's comment on the PR starts it.
    const person = w.gh.addReviewComment('acme/web', pr, {
      body: 'Looks fine to me',
      user: { login: 'grace', type: 'User' },
    });
    await hook(
      w,
      githubPayloads.reviewComment({
        repo: 'acme/web',
        number: pr,
        author: 'grace',
        commentId: person.id,
        body: person.body,
      }),
    );
    await scheduleTurn(w.app.ctx, ticket);
    await waitFor(() => (later[0]?.results.length ?? 0) >= 1, 'the later turn', 30_000);
    const after = later[0]?.results[0]?.join('\n') ?? '';
    expect(after).toMatch(/refused: .* past 3 rounds on this PR: noted, not worked/);
    expect(after).toMatch(/refused: .* is noted, not worked/);
    expect(w.gh.resolvedThreads.has(`PRRT_${lastComment}`)).toBe(false);
  }, 60_000);
});
