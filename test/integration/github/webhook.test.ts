import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TriggerCard } from '../../../src/cards/card.ts';
import { loadCard } from '../../../src/cards/ingest.ts';
import { outboxJobId } from '../../../src/outbox/enqueue.ts';
import { type TestApp, waitFor } from '../../kit/app.ts';
import type { FakeGitHub } from '../../kit/fake-github.ts';
import { closeGitHubTestWorld, startGitHubTestWorld } from '../../kit/github-app.ts';
import { githubPayloads as P, sendGitHubEvent } from '../../kit/github-webhook.ts';

const SECRET = 'gh-webhook-secret';

describe('GitHub webhook in (R-A2, R-A3)', () => {
  let gh: FakeGitHub;
  let app: TestApp;
  beforeEach(async () => {
    ({ gh, app } = await startGitHubTestWorld(SECRET));
  });
  afterEach(() => closeGitHubTestWorld({ gh, app }));

  const send = (event: string, payload: unknown, deliveryId?: string) =>
    sendGitHubEvent(app.url, event, payload, { secret: SECRET, ...(deliveryId ? { deliveryId } : {}) });
  const cardCount = () => app.ctx.redis.zcard(app.ctx.keys.cardsByTime());
  const cardOf = async (res: Response): Promise<TriggerCard> => {
    const { card } = (await res.json()) as { card: string };
    const stored = await loadCard(app.ctx, card);
    if (!stored) throw new Error(`card ${card} not stored`);
    return stored;
  };
  const seenJob = (cardId: string) => app.ctx.queues.outbox.getJob(outboxJobId(`seen:${cardId}`));

  it('R-A2: a signed mention comment → one card, one routing job (id = card id), one 👀 at GitHub', async () => {
    const res = await send('issue_comment', P.mentionComment({ commentId: 101 }));
    expect(res.status).toBe(202);
    const card = await cardOf(res);
    expect(card).toMatchObject({
      source: 'github',
      kind: 'issue_comment',
      request: true,
      author: { id: 'ada', type: 'person', role: 'MEMBER' },
      origin: { repo: 'acme/widgets', number: 7, isPullRequest: false, commentId: 101, commentType: 'issue' },
      conversation: 'acme/widgets#7',
    });
    expect(card.refs).toContainEqual({ type: 'issue', repo: 'acme/widgets', number: 7 });
    // Issue 18: the 202 means the card is durable in the intake; a worker's pump queues its jobs.
    expect((await waitFor(() => app.ctx.queues.route.getJob(card.id), 'the routing job')).data).toEqual({
      cardId: card.id,
    });
    await waitFor(() => gh.reactions.find((r) => r.targetId === 101), 'the 👀 reaction');
    expect(gh.reactions.filter((r) => r.targetId === 101)).toEqual([
      expect.objectContaining({ target: 'issue_comment', content: 'eyes', repo: 'acme/widgets' }),
    ]);
  });

  it('R-A2, issue 14: a replayed body under a new delivery id adds nothing; a later edit of the object does', async () => {
    const before = await cardCount();
    // Times relative to now: an object older than the dedupe window is a replay by itself (issue 31).
    const at = (ago: number) => new Date(Date.now() - ago).toISOString();
    const payload = P.mentionComment({ commentId: 4_404, updatedAt: at(10 * 60_000) });
    const first = await send('issue_comment', payload, 'replay-1');
    expect(await first.json()).toMatchObject({ status: 'new' });
    const replays = await Promise.all([
      send('issue_comment', payload, 'replay-2'),
      send('issue_comment', payload, 'replay-3'),
    ]);
    for (const r of replays) expect(await r.json()).toMatchObject({ status: 'duplicate' });
    expect(await cardCount()).toBe(before + 1);
    const later = P.mentionComment({ commentId: 4_404, updatedAt: at(5 * 60_000), body: 'edited' });
    expect(await (await send('issue_comment', later, 'replay-4')).json()).toMatchObject({ status: 'new' });
    expect(await cardCount()).toBe(before + 2);
  });

  it('issue 31: a comment last changed longer ago than the dedupe window is a replay under any delivery id', async () => {
    const before = await cardCount();
    const days = (n: number) => new Date(Date.now() - n * 24 * 3600 * 1000).toISOString();
    const stale = P.mentionComment({ commentId: 5_505, updatedAt: days(5) });
    const answer = await send('issue_comment', stale, 'stale-1');
    expect(answer.status).toBe(202);
    expect(await answer.json()).toMatchObject({ status: 'duplicate' });
    expect(await cardCount()).toBe(before);
    // Inside the window it is new as before.
    const recent = P.mentionComment({ commentId: 5_506, updatedAt: days(3) });
    expect(await (await send('issue_comment', recent, 'stale-2')).json()).toMatchObject({ status: 'new' });
    expect(await cardCount()).toBe(before + 1);
  });

  it('R-A2: the same delivery twice, and ten times concurrently, produces one card and one reaction', async () => {
    const before = await cardCount();
    const payload = P.mentionComment({ commentId: 202 });
    const first = await send('issue_comment', payload, 'dup-1');
    const second = await send('issue_comment', payload, 'dup-1');
    expect([first.status, second.status]).toEqual([202, 202]);
    expect(await second.json()).toMatchObject({ status: 'duplicate' });
    const burst = await Promise.all(
      Array.from({ length: 10 }, () => send('issue_comment', P.mentionComment({ commentId: 303 }), 'dup-2')),
    );
    expect(burst.map((r) => r.status)).toEqual(Array(10).fill(202));
    expect(await cardCount()).toBe(before + 2);
    // One routing job per card, whatever the routing worker has done with them meanwhile.
    const routeJobs = async () =>
      Object.values(
        await app.ctx.queues.route.getJobCounts('wait', 'active', 'delayed', 'completed', 'failed'),
      ).reduce((a, b) => a + b, 0);
    await waitFor(async () => (await routeJobs()) >= (await cardCount()), 'a routing job per card');
    await waitFor(() => gh.reactions.some((r) => r.targetId === 303), 'the reaction');
    await new Promise((r) => setTimeout(r, 300));
    expect(await routeJobs()).toBe(await cardCount());
    expect(gh.reactions.filter((r) => r.targetId === 202 || r.targetId === 303)).toHaveLength(2);
    expect(gh.callsTo('POST', /\/issues\/comments\/(202|303)\/reactions$/)).toHaveLength(2);
  });

  it('R-A2: a bad or missing signature answers 401 and stores nothing', async () => {
    const before = await cardCount();
    const bad = await sendGitHubEvent(app.url, 'issue_comment', P.mentionComment(), { secret: 'wrong' });
    const tampered = await sendGitHubEvent(app.url, 'issue_comment', P.mentionComment(), {
      secret: SECRET,
      tamper: true,
    });
    const missing = await sendGitHubEvent(app.url, 'issue_comment', P.mentionComment(), {
      secret: SECRET,
      headers: { 'x-hub-signature-256': undefined },
    });
    expect([bad.status, tampered.status, missing.status]).toEqual([401, 401, 401]);
    expect(await bad.json()).toMatchObject({ code: 'bad_signature' });
    expect(await cardCount()).toBe(before);
  });

  it('R-A2: missing event/delivery headers, truncated JSON and an oversized body answer 400, storing nothing', async () => {
    const before = await cardCount();
    const noEvent = await sendGitHubEvent(app.url, 'issue_comment', P.mentionComment(), {
      secret: SECRET,
      headers: { 'x-github-event': undefined },
    });
    const noDelivery = await sendGitHubEvent(app.url, 'issue_comment', P.mentionComment(), {
      secret: SECRET,
      headers: { 'x-github-delivery': undefined },
    });
    const truncated = await sendGitHubEvent(app.url, 'issue_comment', undefined, {
      secret: SECRET,
      rawBody: JSON.stringify(P.mentionComment()).slice(0, 80),
    });
    const big = await sendGitHubEvent(app.url, 'issue_comment', undefined, {
      secret: SECRET,
      rawBody: JSON.stringify({ ...P.mentionComment(), pad: 'x'.repeat(1024 * 1024 + 10) }),
    });
    const wrongShape = await send('issue_comment', { action: 'created', sender: { login: 'ada' } });
    expect([noEvent.status, noDelivery.status, truncated.status, big.status, wrongShape.status]).toEqual([
      400, 400, 400, 400, 400,
    ]);
    expect(await truncated.json()).toMatchObject({ code: 'malformed_json' });
    expect(await cardCount()).toBe(before);
  });

  it('R-A2: event types and actions we do not handle still answer 202, with no card', async () => {
    const before = await cardCount();
    const ping = await send('ping', { zen: 'Keep it logically awesome.', hook_id: 1 });
    const deleted = await send('issue_comment', { ...P.mentionComment(), action: 'deleted' });
    expect([ping.status, deleted.status]).toEqual([202, 202]);
    expect(await cardCount()).toBe(before);
  });

  it("R-A2: the bot's own comment is a self card, another bot's a bot card: no request, no reaction", async () => {
    const self = await cardOf(
      await send(
        'issue_comment',
        P.mentionComment({ author: 'switchyard-bot', commentId: 404, body: 'Done @switchyard-bot' }),
      ),
    );
    const other = await cardOf(
      await send(
        'issue_comment',
        P.mentionComment({ author: 'dependabot[bot]', commentId: 505, body: '@switchyard-bot rebase' }),
      ),
    );
    const typed = await cardOf(
      await send(
        'issue_comment',
        P.mentionComment({ author: { login: 'ci-helper', type: 'Bot' }, commentId: 606 }),
      ),
    );
    expect(self.author.type).toBe('self');
    expect(other.author.type).toBe('bot');
    expect(typed.author.type).toBe('bot');
    expect([self.request, other.request, typed.request]).toEqual([false, false, false]);
    for (const c of [self, other, typed]) expect(await seenJob(c.id)).toBeUndefined();
    await new Promise((r) => setTimeout(r, 200));
    expect(gh.reactions.filter((r) => [404, 505, 606].includes(r.targetId))).toEqual([]);
  });

  it('R-A2: a failed check_run is a check card with facts, never a request', async () => {
    const card = await cardOf(await send('check_run', P.checkRunFailed({ prs: [12] })));
    expect(card).toMatchObject({
      kind: 'check',
      request: false,
      author: { type: 'bot' },
      origin: { repo: 'acme/widgets', number: 12, isPullRequest: true },
      conversation: 'acme/widgets#12',
      facts: { name: 'ci / test', status: 'completed', conclusion: 'failure', app: 'github-actions' },
    });
    expect(card.refs).toEqual(
      expect.arrayContaining([
        { type: 'pr', repo: 'acme/widgets', number: 12 },
        { type: 'commit', sha: 'c0ffee'.padEnd(40, '0') },
        { type: 'branch', repo: 'acme/widgets', name: 'fix-login' },
      ]),
    );
    expect(await seenJob(card.id)).toBeUndefined();
  });

  it('R-A3: a review-comment reply carries its thread, its PR, head branch and SHA; 👀 goes on the review comment', async () => {
    const card = await cardOf(
      await send('pull_request_review_comment', P.reviewComment({ commentId: 707, inReplyTo: 700 })),
    );
    expect(card).toMatchObject({
      kind: 'review_comment',
      request: true,
      replyTo: 'comment:700',
      origin: { number: 12, isPullRequest: true, commentId: 707, commentType: 'review' },
    });
    expect(card.refs).toEqual(
      expect.arrayContaining([
        { type: 'pr', repo: 'acme/widgets', number: 12 },
        { type: 'branch', repo: 'acme/widgets', name: 'fix-login' },
        { type: 'message', id: 'comment:700' },
      ]),
    );
    await waitFor(
      () => gh.reactions.find((r) => r.target === 'review_comment' && r.targetId === 707),
      'the reaction',
    );
  });

  it('R-B8: assigning the bot to an issue is a request; 👀 goes on the issue', async () => {
    const card = await cardOf(await send('issues', P.issueAssigned({ number: 9 })));
    expect(card).toMatchObject({ kind: 'issue', action: 'assigned', request: true, title: 'Add dark mode' });
    await waitFor(() => gh.reactions.find((r) => r.target === 'issue' && r.targetId === 9), 'the reaction');
    const byBot = await cardOf(
      await send('issues', P.issueAssigned({ number: 10, sender: 'renovate[bot]' })),
    );
    expect(byBot.request).toBe(false);
  });

  it('R-A3: a review and a PR opening become cards with their state and head refs', async () => {
    const review = await cardOf(await send('pull_request_review', P.review({ body: 'See #3' })));
    expect(review).toMatchObject({ kind: 'review', request: false, facts: { state: 'changes_requested' } });
    expect(review.refs).toContainEqual({ type: 'issue', repo: 'acme/widgets', number: 3 });
    const pr = await cardOf(
      await send(
        'pull_request',
        P.prOpened({ number: 31, body: '@switchyard-bot review please', head: 'feat-x' }),
      ),
    );
    expect(pr).toMatchObject({
      kind: 'pull_request',
      action: 'opened',
      request: true,
      facts: { head: 'feat-x' },
    });
    expect(pr.refs).toContainEqual({ type: 'branch', repo: 'acme/widgets', name: 'feat-x' });
  });
});
