import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { markerOf } from '../../../src/channels/github/marker.ts';
import type { Effect } from '../../../src/outbox/effect.ts';
import { enqueueEffect, outboxJobId } from '../../../src/outbox/enqueue.ts';
import { type TestApp, waitFor } from '../../kit/app.ts';
import type { FakeGitHub } from '../../kit/fake-github.ts';
import { closeGitHubTestWorld, startGitHubTestWorld } from '../../kit/github-app.ts';

describe('GitHub out through the outbox (no comment twice)', () => {
  let gh: FakeGitHub;
  let app: TestApp;
  beforeEach(async () => {
    // The product's default spacing of GitHub writes (the kit turns it off elsewhere).
    ({ gh, app } = await startGitHubTestWorld('s', { GITHUB_WRITE_SPACING_MS: '1000' }));
  });
  afterEach(() => closeGitHubTestWorld({ gh, app }));

  /** Queues one effect and waits until its job has finished, one way or the other. */
  async function deliver(key: string, effect: Effect, timeoutMs = 10_000) {
    await enqueueEffect(app.ctx, { key, effect });
    const job = await waitFor(() => app.ctx.queues.outbox.getJob(outboxJobId(key)), 'the job');
    await waitFor(
      async () => ['completed', 'failed'].includes(await job.getState()),
      `job ${key}`,
      timeoutMs,
    );
    return (await app.ctx.queues.outbox.getJob(outboxJobId(key)))!;
  }
  const commentsOn = (repo: string, number: number) =>
    gh.comments.filter((c) => c.repo === repo && c.number === number);

  it('issue 31: a team mention the model wrote reaches GitHub as code, pinging no one', async () => {
    const job = await deliver('test:team', {
      op: 'github.comment',
      repo: 'acme/a',
      number: 1,
      body: 'Done; cc @acme/security-team please review.',
    });
    expect(await job.getState()).toBe('completed');
    const [comment] = commentsOn('acme/a', 1);
    expect(comment?.body).toContain('cc `@acme/security-team` please review.');
  });

  it('a 429 with Retry-After, then 200, ends in exactly one comment, sent after the wait', async () => {
    gh.failNext({ method: 'POST', path: '/repos/acme/a/issues/1/comments', status: 429, retryAfter: 1 });
    const job = await deliver('c-429', { op: 'github.comment', repo: 'acme/a', number: 1, body: 'On it.' });
    expect(await job.getState()).toBe('completed');
    const posts = gh.callsTo('POST', '/repos/acme/a/issues/1/comments');
    expect(posts.map((c) => c.status)).toEqual([429, 201]);
    expect(commentsOn('acme/a', 1)).toHaveLength(1);
    expect(commentsOn('acme/a', 1)[0]?.body).toBe(`On it.\n\n${markerOf('c-429')}`);
    expect(job.returnvalue).toMatchObject({ status: 'sent', id: String(commentsOn('acme/a', 1)[0]?.id) });
    expect(posts[0]?.auth).toBe('token ghp_test');
  });

  it('a retry after a crash-like failure (stored, then 500) finds the marker and posts nothing twice', async () => {
    gh.failNext({
      method: 'POST',
      path: '/repos/acme/b/issues/2/comments',
      status: 500,
      afterHandling: true,
    });
    const job = await deliver('c-crash', {
      op: 'github.comment',
      repo: 'acme/b',
      number: 2,
      body: 'Fixed in #3.',
    });
    expect(await job.getState()).toBe('completed');
    expect(gh.callsTo('POST', '/repos/acme/b/issues/2/comments')).toHaveLength(1);
    expect(gh.callsTo('GET', '/repos/acme/b/issues/2/comments')).toHaveLength(1);
    expect(commentsOn('acme/b', 2)).toHaveLength(1);
    expect(job.returnvalue).toMatchObject({ id: String(commentsOn('acme/b', 2)[0]?.id) });
  });

  it('a 500 before anything was stored is retried and ends in one comment', async () => {
    gh.failNext({ method: 'POST', path: '/repos/acme/c/issues/3/comments', status: 502 });
    const job = await deliver('c-502', { op: 'github.comment', repo: 'acme/c', number: 3, body: 'Done.' });
    expect(await job.getState()).toBe('completed');
    expect(gh.callsTo('POST', '/repos/acme/c/issues/3/comments').map((c) => c.status)).toEqual([502, 201]);
    expect(commentsOn('acme/c', 3)).toHaveLength(1);
  });

  it('a 403 rate limit (x-ratelimit-remaining 0) waits until x-ratelimit-reset, then sends once', async () => {
    const reset = String(Math.ceil(Date.now() / 1000));
    gh.failNext({
      method: 'POST',
      path: '/repos/acme/d/issues/4/comments',
      status: 403,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
    });
    const job = await deliver('c-403', { op: 'github.comment', repo: 'acme/d', number: 4, body: 'Hi.' });
    expect(await job.getState()).toBe('completed');
    expect(commentsOn('acme/d', 4)).toHaveLength(1);
  });

  it('any other 4xx fails for good after one attempt and is kept as failed', async () => {
    gh.failNext({ method: 'POST', path: '/repos/acme/e/issues/5/comments', status: 404 });
    const job = await deliver('c-404', { op: 'github.comment', repo: 'acme/e', number: 5, body: 'x' });
    expect(await job.getState()).toBe('failed');
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toMatch(/github: /);
    expect(gh.callsTo('POST', '/repos/acme/e/issues/5/comments')).toHaveLength(1);
  });

  it('R-C7: a review reply lands in its thread (with a marker) and resolving the thread is recorded', async () => {
    const pull = gh.addPull('acme/f', { title: 'Fix', head: 'fix' });
    const root = gh.addReviewComment('acme/f', pull.number, {
      body: 'Handle null?',
      user: { login: 'ada', type: 'User' },
    });
    gh.failNext({ method: 'POST', path: /\/comments\/\d+\/replies$/, status: 500, afterHandling: true });
    const reply = await deliver('r-1', {
      op: 'github.review_reply',
      repo: 'acme/f',
      number: pull.number,
      commentId: root.id,
      body: 'Left as is: null never reaches here.',
    });
    expect(await reply.getState()).toBe('completed');
    const replies = gh.reviewComments.filter((c) => c.in_reply_to_id === root.id);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({ threadId: root.threadId });
    expect(replies[0]?.body).toContain(markerOf('r-1'));
    const resolve = await deliver('t-1', { op: 'github.resolve_thread', threadId: root.threadId });
    expect(await resolve.getState()).toBe('completed');
    expect(gh.resolvedThreads.has(root.threadId)).toBe(true);
  });

  it('an unknown review thread fails for good (a GraphQL NOT_FOUND is permanent)', async () => {
    const job = await deliver('t-missing', { op: 'github.resolve_thread', threadId: 'PRRT_nope' });
    expect(await job.getState()).toBe('failed');
    expect(job.attemptsMade).toBe(1);
  });

  it('edits a comment in place and reacts on issues, issue comments and review comments', async () => {
    const edit = await deliver('c-edit-base', {
      op: 'github.comment',
      repo: 'acme/g',
      number: 6,
      body: 'v1',
    });
    const id = Number((edit.returnvalue as { id: string }).id);
    await deliver('c-edit', { op: 'github.comment.edit', repo: 'acme/g', commentId: id, body: 'v2' });
    expect(gh.comments.find((c) => c.id === id)?.body).toBe('v2');
    const pull = gh.addPull('acme/g', { title: 'P', head: 'p' });
    const rc = gh.addReviewComment('acme/g', pull.number, { body: 'nit' });
    for (const [key, target, target_id] of [
      ['re-1', 'issue', 6],
      ['re-2', 'issue_comment', id],
      ['re-3', 'review_comment', rc.id],
    ] as const) {
      await deliver(key, { op: 'github.react', repo: 'acme/g', target, id: target_id, content: 'eyes' });
    }
    expect(gh.reactions.filter((r) => r.repo === 'acme/g').map((r) => [r.target, r.targetId])).toEqual([
      ['issue', 6],
      ['issue_comment', id],
      ['review_comment', rc.id],
    ]);
  });

  it('issue 18: 👀 reactions on six repositories go out together; writes to one repository stay a second apart', async () => {
    const run = Date.now().toString(36);
    const react = (key: string, repo: string, id: number) =>
      enqueueEffect(app.ctx, {
        key,
        effect: { op: 'github.react', repo, target: 'issue', id, content: 'eyes' },
      });
    const keys = [1, 2, 3, 4, 5, 6].map((i) => `burst-${run}-${i}`);
    await Promise.all(keys.map((key, i) => react(key, `burst-${run}/repo-${i}`, 1)));
    const sameRepo = [1, 2, 3].map((i) => `same-${run}-${i}`);
    await Promise.all(sameRepo.map((key, i) => react(key, `same-${run}/repo`, i + 1)));
    const finished = async (ks: string[]) =>
      waitFor(
        async () => {
          const jobs = await Promise.all(ks.map((k) => app.ctx.queues.outbox.getJob(outboxJobId(k))));
          const times = jobs.map((j) => j?.finishedOn);
          return times.every((t) => t !== undefined) ? (times as number[]) : undefined;
        },
        'the reactions',
        20_000,
      );
    await finished([...keys, ...sameRepo]);
    const at = (prefix: string) =>
      gh.calls
        .filter((c) => c.method === 'POST' && c.path.startsWith(`/repos/${prefix}`))
        .map((c) => c.at ?? 0);
    const burst = at(`burst-${run}/`);
    // Spaced a second apart (the plugin's old single queue per host) these would span 5 s or more.
    expect(Math.max(...burst) - Math.min(...burst)).toBeLessThan(3000);
    // GitHub's guidance still holds per repository: its writes start a second apart, so three
    // span about two seconds (less a first request's own delay; at once they would span ~0).
    const same = at(`same-${run}/`);
    expect(same).toHaveLength(3);
    expect(Math.max(...same) - Math.min(...same)).toBeGreaterThanOrEqual(1500);
    expect(gh.reactions.filter((r) => r.repo.startsWith(`burst-${run}/`))).toHaveLength(6);
  });
});
