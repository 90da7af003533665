import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isPaused } from '../../../src/tickets/pause.ts';
import { type GitHubWorld, SECRET, settle, startGitHubWorld } from '../../faults/github-world.ts';
import { waitFor } from '../../kit/app.ts';
import { text } from '../../kit/fake-llm.ts';
import { githubPayloads, sendGitHubEvent } from '../../kit/github-webhook.ts';
import { ackAll, openAll, scriptedModel } from '../../kit/scripted-model.ts';

const PR = 12;
let reviewIds = 90_000;

/** POSTs a signed `pull_request_review` (submitted unless `action` says) on acme/widgets#12. */
async function review(w: GitHubWorld, body: string, action = 'submitted'): Promise<string> {
  const payload = {
    ...githubPayloads.review({ author: 'ada', body, number: PR, reviewId: ++reviewIds }),
    action,
  };
  const res = await sendGitHubEvent(w.app.url, 'pull_request_review', payload, { secret: SECRET });
  if (res.status !== 202) throw new Error(`webhook answered ${res.status}`);
  return ((await res.json()) as { card: string }).card;
}

/** POSTs a signed `pull_request_review_comment.created` by `author` on acme/widgets#12. */
async function reviewComment(w: GitHubWorld, author: string, body: string): Promise<string> {
  // The comment exists on GitHub as the webhook says, so a reply in its thread can land.
  const { id } = w.gh.addReviewComment('acme/widgets', PR, { body, user: { login: author, type: 'User' } });
  const payload = githubPayloads.reviewComment({ author, body, number: PR, commentId: id });
  const res = await sendGitHubEvent(w.app.url, 'pull_request_review_comment', payload, { secret: SECRET });
  if (res.status !== 202) throw new Error(`webhook answered ${res.status}`);
  return ((await res.json()) as { card: string }).card;
}

describe('commands wherever a person writes: a review’s body and its comments (R-D2)', () => {
  let w: GitHubWorld;
  beforeEach(async () => {
    w = await startGitHubWorld();
    w.llm.respond(scriptedModel({ main: openAll, executor: ackAll, onResults: () => text('Done.') }));
    w.gh.setPermission('acme/widgets', 'mallory', 'read');
  });
  afterEach(async () => w?.close());

  it('R-D2: /pause as a submitted review’s body pauses the PR’s ticket and says so on the PR; /resume in a review comment resumes it and says so in that thread', async () => {
    const ticket = await w.open('ada', '@switchyard-bot please fix the login redirect', PR);

    const pause = await review(w, '/pause');
    expect(await w.routed(pause)).toMatchObject({ kind: 'command', command: 'pause', tickets: [ticket] });
    expect(await isPaused(w.app.ctx, ticket)).toBe(true);
    await waitFor(
      () =>
        w
          .botComments(PR)
          .find(
            (b) => b.split('\n')[0] === `Paused ${ticket}; nothing more happens until someone says /resume.`,
          ),
      'the pause confirmation on the PR',
      20_000,
    );

    // Permissions per resource as in issue comments: a reader's /resume in a review comment is data.
    expect((await w.routed(await reviewComment(w, 'mallory', '/resume'))).kind).not.toBe('command');
    expect(await isPaused(w.app.ctx, ticket)).toBe(true);

    const resume = await reviewComment(w, 'ada', '@switchyard-bot /resume');
    expect(await w.routed(resume)).toMatchObject({ kind: 'command', command: 'resume', tickets: [ticket] });
    expect(await isPaused(w.app.ctx, ticket)).toBe(false);
    await waitFor(
      () => w.gh.reviewComments.find((c) => c.body.split('\n')[0] === `Resumed ${ticket}.`),
      'the resume confirmation in the review thread',
      20_000,
    );
  });

  it('R-D2: a dismissed review carrying "/pause" commands nothing', async () => {
    const ticket = await w.open('ada', '@switchyard-bot please fix the login redirect', PR);
    expect((await w.routed(await review(w, '/pause', 'dismissed'))).kind).not.toBe('command');
    await settle();
    expect(await isPaused(w.app.ctx, ticket)).toBe(false);
  });
});
