import type { Config } from '../../config.ts';
import type { Logger } from '../../logger.ts';
import type { DeliveryResult, EffectOf, Sender } from '../../outbox/effect.ts';
import { DeliveryError } from '../../outbox/errors.ts';
import { createGitHubClient, type GitHubClient, splitRepo } from './client.ts';
import { toDeliveryError } from './delivery-error.ts';
import { findMarkedIssueComment, findMarkedReviewComment } from './find-marked.ts';
import { markerOf, withMarker } from './marker.ts';

const RESOLVE_THREAD = `mutation($threadId: ID!) {
  resolveReviewThread(input: { threadId: $threadId }) { thread { id isResolved } }
}`;

type GitHubEffect = EffectOf<
  'github.react' | 'github.comment' | 'github.comment.edit' | 'github.review_reply' | 'github.resolve_thread'
>;

const ok = (id: number | string): DeliveryResult => ({ id: String(id) });

/** Reactions are idempotent at GitHub (the same one again answers 200), so they need no marker. */
async function react(client: GitHubClient, e: EffectOf<'github.react'>): Promise<DeliveryResult> {
  const where = splitRepo(e.repo);
  const { content } = e;
  switch (e.target) {
    case 'issue':
      return ok(
        (await client.rest.reactions.createForIssue({ ...where, issue_number: e.id, content })).data.id,
      );
    case 'issue_comment':
      return ok(
        (await client.rest.reactions.createForIssueComment({ ...where, comment_id: e.id, content })).data.id,
      );
    case 'review_comment': {
      const res = await client.rest.reactions.createForPullRequestReviewComment({
        ...where,
        comment_id: e.id,
        content,
      });
      return ok(res.data.id);
    }
  }
}

async function deliverOne(
  client: GitHubClient,
  e: GitHubEffect,
  key: string,
  attempt: number,
): Promise<DeliveryResult> {
  switch (e.op) {
    case 'github.react':
      return react(client, e);
    case 'github.comment': {
      // A retry may follow a lost answer to a comment GitHub did store: look for it first.
      const found =
        attempt > 0 ? await findMarkedIssueComment(client, e.repo, e.number, markerOf(key)) : undefined;
      if (found !== undefined) return ok(found);
      const body = withMarker(e.body, key);
      return ok(
        (await client.rest.issues.createComment({ ...splitRepo(e.repo), issue_number: e.number, body })).data
          .id,
      );
    }
    case 'github.review_reply': {
      const found =
        attempt > 0 ? await findMarkedReviewComment(client, e.repo, e.number, markerOf(key)) : undefined;
      if (found !== undefined) return ok(found);
      const res = await client.rest.pulls.createReplyForReviewComment({
        ...splitRepo(e.repo),
        pull_number: e.number,
        comment_id: e.commentId,
        body: withMarker(e.body, key),
      });
      return ok(res.data.id);
    }
    case 'github.comment.edit': {
      const res = await client.rest.issues.updateComment({
        ...splitRepo(e.repo),
        comment_id: e.commentId,
        body: e.body,
      });
      return ok(res.data.id);
    }
    case 'github.resolve_thread':
      // Resolving twice is harmless: GitHub answers with the already-resolved thread (R-C7).
      await client.graphql(RESOLVE_THREAD, { threadId: e.threadId });
      return ok(e.threadId);
  }
}

/**
 * The outbox's GitHub sender: reactions, comments, comment edits, review-thread replies and
 * thread resolution, each mapped to `DeliveryError` so the outbox worker decides about retries.
 */
export function githubSender(client: GitHubClient): Sender {
  return {
    async deliver(effect, key, attempt) {
      if (!effect.op.startsWith('github.'))
        throw new DeliveryError(`not a GitHub effect: ${effect.op}`, true);
      try {
        return await deliverOne(client, effect as GitHubEffect, key, attempt);
      } catch (err) {
        throw toDeliveryError(err);
      }
    },
  };
}

/**
 * The sender as `createSenders` builds it from config: token mode authenticates with
 * `GITHUB_TOKEN`. App mode has no installation tokens yet, so its writes are refused by GitHub and
 * fail for good; the start-up log says so once.
 */
export function githubSenderFor(config: Config, log: Logger): Sender {
  if (!config.GITHUB_TOKEN) {
    log.warn(
      'GitHub App mode: installation tokens are not implemented yet, outgoing GitHub effects will fail',
    );
  }
  return githubSender(createGitHubClient({ baseUrl: config.GITHUB_API_URL, auth: config.GITHUB_TOKEN, log }));
}
