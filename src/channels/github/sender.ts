import type { Config } from '../../config.ts';
import type { Logger } from '../../logger.ts';
import type { DeliveryResult, EffectOf, Sender } from '../../outbox/effect.ts';
import { DeliveryError } from '../../outbox/errors.ts';
import { neutralizeMentions } from '../../safety/neutralize-mentions.ts';
import { type GitHubClient, splitRepo } from './client.ts';
import { toDeliveryError } from './delivery-error.ts';
import { findMarkedIssueComment, findMarkedReviewComment } from './find-marked.ts';
import { markerOf, withMarker } from './marker.ts';
import { githubRepoAccess } from './repo-client.ts';

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
      const body = withMarker(neutralizeMentions(e.body), key);
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
        body: withMarker(neutralizeMentions(e.body), key),
      });
      return ok(res.data.id);
    }
    case 'github.comment.edit': {
      const res = await client.rest.issues.updateComment({
        ...splitRepo(e.repo),
        comment_id: e.commentId,
        body: neutralizeMentions(e.body),
      });
      return ok(res.data.id);
    }
    case 'github.resolve_thread':
      // Resolving twice is harmless: GitHub answers with the already-resolved thread (R-C7).
      await client.graphql(RESOLVE_THREAD, { threadId: e.threadId });
      return ok(e.threadId);
  }
}

/** The client an effect goes out with: the one given, or its repository's (App mode). */
type ClientOf = (e: GitHubEffect) => Promise<GitHubClient>;

/**
 * The outbox's GitHub sender: reactions, comments, comment edits, review-thread replies and
 * thread resolution, each mapped to `DeliveryError` so the outbox worker decides about retries.
 * Every body goes out with its team mentions neutralised (issue 31, `neutralizeMentions`).
 */
export function githubSender(client: GitHubClient | ClientOf): Sender {
  const clientOf: ClientOf = typeof client === 'function' ? client : async () => client;
  return {
    async deliver(effect, key, attempt) {
      if (!effect.op.startsWith('github.'))
        throw new DeliveryError(`not a GitHub effect: ${effect.op}`, true);
      try {
        const e = effect as GitHubEffect;
        return await deliverOne(await clientOf(e), e, key, attempt);
      } catch (err) {
        throw toDeliveryError(err);
      }
    },
  };
}

/**
 * The sender as `createSenders` builds it from config: token mode authenticates with
 * `GITHUB_TOKEN`; App mode with the installation token of the effect's repository. A
 * `resolve_thread` queued without its repository can only go out in token mode.
 */
export function githubSenderFor(config: Config, log: Logger): Sender {
  const access = githubRepoAccess(config, log);
  return githubSender(async (e) => {
    if (e.repo !== undefined) return access.clientFor(e.repo);
    if (access.mode === 'token') return access.clientFor('');
    throw new DeliveryError(`${e.op} names no repository, which App mode needs`, true);
  });
}
